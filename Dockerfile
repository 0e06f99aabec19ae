# kgdiff's image: the command line and the REST service, with the native row builder.
#   docker compose build
#   docker compose --profile demo run --rm demo     # the bundled samples into the volume
#   docker compose up -d api                        # http://localhost:8000/health
FROM python:3.11-slim-bookworm

# g++ and simdjson build the native row builder; lbzip2 decompresses .bz2 dumps in parallel
RUN apt-get update \
    && apt-get install -y --no-install-recommends g++ libsimdjson-dev lbzip2 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY . /src
# a wheel install (not editable): the SQL, the samples and the service travel in the package;
# the import proves the native row builder was built
RUN pip install --no-cache-dir . \
    && python -c "import kgdiff._native" \
    && rm -rf /src

WORKDIR /data
ENV KGDIFF_STORE=/data
VOLUME ["/data"]
EXPOSE 8000
CMD ["kgdiff", "serve", "--host", "0.0.0.0", "--port", "8000"]

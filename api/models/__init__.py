"""The service's response models (pydantic): the OpenAPI schema clients and tests rely on."""

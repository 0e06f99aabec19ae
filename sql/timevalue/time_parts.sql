-- name: time_parts
-- purpose: Catalog macro `kgdiff_time_parts(value)`: the parts of a time value key
--          (`±Y-MM-DDT00:00:00Z|precision|calendar`, docs/data-model.md) as a struct:
--          `written` (the year as written: -44 for 44 BCE; HUGEINT, any length Wikibase
--          allows), `month`, `day` (0 when not given), `precision`, `julian` (the Julian
--          calendar) and `step` (the years a precision coarser than a year spans:
--          10^(9 - precision), else 1). NULL for a value key of another kind.
-- params: none; `value` (VARCHAR, a value key) is the macro's parameter.
CREATE OR REPLACE MACRO kgdiff_time_parts(value) AS
list_transform(
    [regexp_extract(
        value,
        '^([+-])([0-9]{1,30})-([0-9]{2})-([0-9]{2})T[^|]*\|([0-9]{1,2})\|(.+)$',
        ['sign', 'year', 'month', 'day', 'precision', 'calendar']
    )],
    lambda p: CASE WHEN p.year <> '' THEN struct_pack(
        written := CAST(p.year AS HUGEINT) * CASE WHEN p.sign = '-' THEN -1 ELSE 1 END,
        month := CAST(p.month AS INTEGER),
        day := CAST(p.day AS INTEGER),
        precision := CAST(p.precision AS INTEGER),
        julian := p.calendar = 'Q1985786',
        step := coalesce(
            [1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10][
                CAST(p.precision AS INTEGER) + 1],
            1
        )
    ) END
)[1];

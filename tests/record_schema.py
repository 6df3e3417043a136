"""The record schema (protocol/schemas/record.schema.json) as the tests check records against it."""

from __future__ import annotations

import functools
import json
from typing import Any

from conftest import ROOT
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs in the test extras

SCHEMA = ROOT / "protocol" / "schemas" / "record.schema.json"


@functools.cache
def validator() -> Draft202012Validator:
    """The record schema's validator, the schema itself checked first."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_errors(record: dict[str, Any]) -> list[str]:
    """What the schema says is wrong with ``record`` (nothing: an empty list)."""
    return [error.message for error in validator().iter_errors(record)]

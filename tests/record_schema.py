"""The record schema (protocol/schemas/record.schema.json) as the tests check records against it.

The schema names its parts by reference (``{"$ref": "#/$defs/card"}``), and jsonschema looks each
reference up again at every use: for a record's hundreds of cards and actions that lookup took two thirds
of a check. The tests check against the same schema with each reference replaced by the part it names
(``inlined``), which judges every record as the published one does (tests/wire/test_records.py compares
the two on generated and damaged records).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from conftest import ROOT
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs in the test extras

SCHEMA = ROOT / "protocol" / "schemas" / "record.schema.json"
DEFS = "#/$defs/"


def inlined(node: Any, defs: dict[str, Any], within: tuple[str, ...] = ()) -> Any:
    """``node`` with every local reference replaced by the definition it names (beside any keywords of its
    own, under ``allOf``), and no ``$defs``; a definition that refers to itself is refused."""
    if isinstance(node, list):
        return [inlined(item, defs, within) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: inlined(value, defs, within) for key, value in node.items() if key not in ("$ref", "$defs")}
    reference = node.get("$ref")
    if reference is None:
        return out
    if not (isinstance(reference, str) and reference.startswith(DEFS)):
        raise ValueError(f"not a local reference: {reference!r}")
    name = reference.removeprefix(DEFS)
    if name in within:
        raise ValueError(f"a definition that refers to itself: {name!r}")
    target = inlined(defs[name], defs, (*within, name))
    return {**out, "allOf": [*out.get("allOf", []), target]} if out else target


@functools.cache
def published() -> Draft202012Validator:
    """The record schema's validator as published, the schema itself checked first."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@functools.cache
def validator() -> Draft202012Validator:
    """The record schema's validator, its references inlined."""
    schema = published().schema
    flat = inlined(schema, schema.get("$defs", {}))
    Draft202012Validator.check_schema(flat)
    return Draft202012Validator(flat)


def schema_errors(record: dict[str, Any]) -> list[str]:
    """What the schema says is wrong with ``record`` (nothing: an empty list)."""
    return [error.message for error in validator().iter_errors(record)]

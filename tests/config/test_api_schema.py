"""The OpenAPI schema is generated without a warning (a warning there is usually a wrong
schema: two components with one name, a view whose input it cannot see)."""

from __future__ import annotations

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_the_openapi_schema_has_no_warnings(tmp_path) -> None:
    out = tmp_path / "schema.yaml"
    # --fail-on-warn exits non-zero (SystemExit) on any warning.
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(out))
    text = out.read_text()
    assert "/api/v1/players/{player_id}/results/" in text and "ChouetteGameInput" in text

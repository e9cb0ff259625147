"""A round's seating request in a column of its own, ``json`` on PostgreSQL (issue 26).

The request (every player and every pair that has met: some 140-280 kB at 1,000 players)
was a key of the ``jsonb`` record, converted to ``jsonb``'s binary form inside the
progression to the next round: 4.1 ms an insert, against 1.6 ms as ``json`` text. The
record keeps the small keys the rounds list looks up. Existing requests move over (and
back on reverse); the new column is compressed with lz4 where the server has it, as the
record's is (migration 0024)."""

import games.fields
from django.db import migrations

_HAS_LZ4 = (
    "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)"
)


def _lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(_HAS_LZ4)
        if cursor.fetchone() is not None:
            cursor.execute(
                "ALTER TABLE tournaments_roundseating ALTER COLUMN request SET COMPRESSION lz4"
            )


def _move_out(apps, schema_editor):
    RoundSeating = apps.get_model("tournaments", "RoundSeating")
    for row in RoundSeating.objects.filter(record__has_key="request").iterator(chunk_size=50):
        row.request = row.record.pop("request") or {}
        row.save(update_fields=["record", "request"])


def _move_back(apps, schema_editor):
    RoundSeating = apps.get_model("tournaments", "RoundSeating")
    for row in RoundSeating.objects.iterator(chunk_size=50):
        if row.request:
            row.record["request"] = row.request
            row.request = {}
            row.save(update_fields=["record", "request"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0025_league_role_known"),
    ]

    operations = [
        migrations.AddField(
            model_name="roundseating",
            name="request",
            field=games.fields.JSONTextField(
                blank=True, default=dict, verbose_name="seating request"
            ),
        ),
        migrations.RunPython(_lz4, migrations.RunPython.noop),
        migrations.RunPython(_move_out, _move_back),
    ]

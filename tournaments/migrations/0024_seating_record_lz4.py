"""The seating record's column compressed with lz4 where PostgreSQL has it (issue 26).

A 1,000-player round's record is some 170 kB of JSON, stored out of line and compressed
(TOAST): with PostgreSQL's default (pglz) its insert took 12 ms, with lz4 8 ms, inside
the progression to the next round. Values already stored keep their compression until
rewritten. Nothing on SQLite, nor where the server was built without lz4."""

from django.db import migrations

_HAS_LZ4 = (
    "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)"
)


def _compression(method: str):
    def run(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute(_HAS_LZ4)
            if cursor.fetchone() is None:
                return
            cursor.execute(
                f"ALTER TABLE tournaments_roundseating ALTER COLUMN record SET COMPRESSION {method}"
            )

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0023_seating_record_orjson"),
    ]

    operations = [
        migrations.RunPython(_compression("lz4"), _compression("DEFAULT")),
    ]

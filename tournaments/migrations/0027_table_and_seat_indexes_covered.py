"""The seats' index on ``table`` and the tables' on ``round`` dropped (issue 26): each is
the first column of a unique constraint's index (``seat_unique_position``,
``table_unique_number``), which serves the same lookups; a progression fills one index
less for each of a round's 1,000 seats."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0026_seating_request_as_json"),
    ]

    operations = [
        migrations.AlterField(
            model_name="seat",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="tournaments.table",
                verbose_name="table",
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="round",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="tables",
                to="tournaments.round",
                verbose_name="round",
            ),
        ),
    ]

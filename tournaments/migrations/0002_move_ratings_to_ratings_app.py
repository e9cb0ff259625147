# Ratings move to their own app (``ratings``), keeping their rows.
#
# Database: the three tables are renamed to the new app's names (ALTER TABLE ... RENAME;
# rows, ids, identity sequences, indexes and constraints go with them).
# State: the models leave ``tournaments`` here and ``ratings/0001_initial`` (which runs
# after this migration) creates them in its state only.

from django.db import migrations

MOVED = {
    "rating": "ratings_rating",
    "ratingchange": "ratings_ratingchange",
    "ratingpool": "ratings_ratingpool",
}


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name=name, table=table) for name, table in MOVED.items()
            ],
            state_operations=[migrations.DeleteModel(name=name) for name in MOVED],
        ),
    ]

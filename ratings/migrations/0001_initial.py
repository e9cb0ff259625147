# The rating models, moved from ``tournaments`` (see tournaments/0002): their tables
# already exist under these names, so the models are created in the migration state
# only. The content types (and so the permissions granted on them) follow the models.

import django.db.models.deletion
import games.kinds
from django.db import migrations, models

MODELS = ("rating", "ratingchange", "ratingpool")


def _move_content_types(apps, schema_editor, *, source, target):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if ContentType.objects.using(db).filter(app_label=target, model=model).exists():
            continue
        ContentType.objects.using(db).filter(app_label=source, model=model).update(
            app_label=target
        )


def content_types_forward(apps, schema_editor):
    _move_content_types(apps, schema_editor, source="tournaments", target="ratings")


def content_types_backward(apps, schema_editor):
    _move_content_types(apps, schema_editor, source="ratings", target="tournaments")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0001_initial"),
        ("tournaments", "0002_move_ratings_to_ratings_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="RatingPool",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=games.kinds.game_kind_choices, max_length=16, unique=True, verbose_name="game kind")),
                        ("recomputed_at", models.DateTimeField(blank=True, null=True, verbose_name="last recomputed at")),
                    ],
                    options={
                        "verbose_name": "rating pool",
                        "verbose_name_plural": "rating pools",
                    },
                ),
                migrations.CreateModel(
                    name="Rating",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=games.kinds.game_kind_choices, max_length=16, verbose_name="game kind")),
                        ("value", models.FloatField(default=1500.0, verbose_name="rating")),
                        ("games", models.PositiveIntegerField(default=0, verbose_name="rated games")),
                        ("updated_at", models.DateTimeField(auto_now=True, verbose_name="updated at")),
                        ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="tournaments.player", verbose_name="player")),
                    ],
                    options={
                        "verbose_name": "rating",
                        "verbose_name_plural": "ratings",
                        "ordering": ["kind", "-value"],
                        "constraints": [
                            models.UniqueConstraint(fields=("player", "kind"), name="rating_unique_player_kind"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingChange",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=games.kinds.game_kind_choices, max_length=16, verbose_name="game kind")),
                        ("before", models.FloatField(verbose_name="rating before")),
                        ("after", models.FloatField(verbose_name="rating after")),
                        ("game_finished_at", models.DateTimeField(verbose_name="game finished at")),
                        ("result_version", models.PositiveIntegerField(verbose_name="result version counted")),
                        ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_changes", to="games.game", verbose_name="game")),
                        ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_changes", to="tournaments.player", verbose_name="player")),
                    ],
                    options={
                        "verbose_name": "rating change",
                        "verbose_name_plural": "rating changes",
                        "ordering": ["kind", "game_finished_at", "game_id", "player_id"],
                        "indexes": [
                            models.Index(fields=["kind", "game_finished_at", "game"], name="ratingchange_order"),
                            models.Index(fields=["player", "kind", "game_finished_at"], name="ratingchange_hist"),
                        ],
                        "constraints": [
                            models.UniqueConstraint(fields=("player", "game"), name="ratingchange_unique"),
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_backward, elidable=True),
    ]

"""League roles are a league's two roles only (scorekeeper, referee), held by a database
constraint, so that the role rule (``tournaments.permissions.RolesOf``) knows every name
a role row can hold. The league staff service never wrote another name; a row of another
name (typed in the admin, which had no choices) granted no role a page or service asks
for, and is removed before the constraint is added."""

from django.conf import settings
from django.db import migrations, models

KNOWN = ["scorekeeper", "referee"]


def drop_unknown_roles(apps, schema_editor):
    LeagueRole = apps.get_model("tournaments", "LeagueRole")
    LeagueRole.objects.exclude(role__in=KNOWN).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0024_seating_record_lz4"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="leaguerole",
            name="role",
            field=models.CharField(
                choices=[("scorekeeper", "Scorekeeper"), ("referee", "Referee")],
                max_length=16,
                verbose_name="role",
            ),
        ),
        migrations.RunPython(drop_unknown_roles, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="leaguerole",
            constraint=models.CheckConstraint(
                condition=models.Q(("role__in", KNOWN)), name="league_role_known"
            ),
        ),
    ]

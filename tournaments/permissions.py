"""Who may do what: role checks used by the services (and by the API for reads).

Roles per tournament: **organizer** (everything: settings, registrations, rounds,
results), **scorekeeper** (record results of the tournament's games), **referee**
(record results and rulings, which are events). Organizers of a league are organizers
of all its tournaments; superusers may do everything. Anonymous users may never write.

A friendly game (no table) may be recorded by its creator, staff and superusers.

``SYSTEM`` is the actor for management commands and Celery tasks: it passes every
check and is stored as "no user".
"""

from __future__ import annotations

from typing import Any

from django.db.models import F, Func, IntegerField, Q
from django.utils.translation import gettext_lazy as _

from games.errors import GameNotFound
from games.models import Game
from tournaments.errors import NotAllowed, NotFound, PlaysInGame
from tournaments.models import (
    League,
    LeagueRole,
    Player,
    Role,
    Table,
    Tournament,
    TournamentRole,
)


class _SystemActor:
    """Management commands and tasks. Not a user: services store it as ``None``."""

    is_authenticated = False  # so that it is never stored as an author
    is_superuser = True
    is_staff = True
    pk = None

    def __repr__(self) -> str:
        return "SYSTEM"


SYSTEM: Any = _SystemActor()
ALL_ROLES = frozenset(Role.values)


def _is_system(user: Any) -> bool:
    return user is SYSTEM


def user_is_signed_in(*, user: Any) -> bool:
    """A real, authenticated user (not anonymous, not ``SYSTEM``)."""
    return user is not None and bool(getattr(user, "is_authenticated", False))


def acting_user(*, user: Any) -> Any:
    """The user to store as the one who acted (an audit row's actor, a proposal's
    author): a signed-in user, else ``None`` (the system: ``SYSTEM``, tasks and
    anonymous callers)."""
    return user if user_is_signed_in(user=user) and getattr(user, "pk", None) else None


def user_is_superuser(*, user: Any) -> bool:
    """A signed-in superuser, or ``SYSTEM``: may do and see everything."""
    return _is_system(user) or (user_is_signed_in(user=user) and bool(user.is_superuser))


def user_can_manage_league(*, user: Any, league: League) -> bool:
    """Superusers and the league's organizers."""
    if user_is_superuser(user=user):
        return True
    if not user_is_signed_in(user=user):
        return False
    return league.organizers.filter(pk=user.pk).exists()


#: Bits of :class:`RolesOf`, one per role. Every name a role row can hold is one of them
#: (``TournamentRole.role`` takes :class:`Role`'s choices, ``LeagueRole.role`` is held to
#: a league's two roles by a database constraint).
_ROLE_BITS = {role: 1 << n for n, role in enumerate(Role.values)}
#: Attribute of a Tournament instance holding ``(user id, roles)`` read with it.
_ROLES_ATTR = "_tock_roles"


class RolesOf(Func):
    """The roles of user ``user_id`` in a tournament, as bits (:data:`_ROLE_BITS`): the
    one statement of the role rule. A user holds in a tournament its own roles
    (:class:`TournamentRole`), the roles of its league's staff (:class:`LeagueRole`:
    scorekeepers and referees of every tournament of the league) and, as an organizer
    of the league (``League.organizers``), the organizer's. An expression, so that a
    query reading a tournament (a game's table) answers it too, a query less per write;
    :func:`user_tournament_roles` asks it alone. Built from expressions naming the
    tournament's id and its league's id, e.g.
    ``RolesOf(F("round__tournament_id"), F("round__tournament__league_id"), user_id=1)``;
    indexed lookups (the three tables' unique constraints)."""

    output_field = IntegerField()

    def __init__(self, tournament: Any, league: Any, *, user_id: int) -> None:
        super().__init__(tournament, league)
        self.user_id = user_id

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        tournament_sql, tournament_params = compiler.compile(self.source_expressions[0])
        league_sql, league_params = compiler.compile(self.source_expressions[1])
        quote = connection.ops.quote_name
        # The bits are this module's integers, written as literals (typed as such
        # whatever the parameter binding); the role names are parameters.
        bits = " ".join(f"WHEN %s THEN {int(bit)}" for bit in _ROLE_BITS.values())
        bit_params = list(_ROLE_BITS)

        def roles(model: Any, owner: str, owner_sql: str) -> str:
            table = quote(model._meta.db_table)
            return (
                f"COALESCE((SELECT SUM(DISTINCT CASE {quote('role')} {bits} ELSE 0 END)"
                f" FROM {table} WHERE {table}.{quote('user_id')} = %s"
                f" AND {table}.{quote(owner)} = {owner_sql}), 0)"
            )

        organizers = quote(League.organizers.through._meta.db_table)
        sql = (
            f"({roles(TournamentRole, 'tournament_id', tournament_sql)}"
            f" | {roles(LeagueRole, 'league_id', league_sql)}"
            f" | CASE WHEN EXISTS(SELECT 1 FROM {organizers}"
            f" WHERE {organizers}.{quote('user_id')} = %s"
            f" AND {organizers}.{quote('league_id')} = {league_sql})"
            f" THEN {_ROLE_BITS[Role.ORGANIZER.value]} ELSE 0 END)"
        )
        params = [
            *bit_params,
            self.user_id,
            *tournament_params,
            *bit_params,
            self.user_id,
            *league_params,
            self.user_id,
            *league_params,
        ]
        return sql, params


def _roles_from_bits(bits: int) -> frozenset[str]:
    return frozenset(role for role, bit in _ROLE_BITS.items() if bits & bit)


def remember_roles(*, tournament: Tournament, user: Any, bits: int | None) -> None:
    """Keep the roles of ``user`` read with ``tournament`` (:class:`RolesOf`'s ``bits``)
    on this instance, for :func:`user_tournament_roles` calls of the same request."""
    if bits is None or not user_is_signed_in(user=user):
        return
    tournament.__dict__[_ROLES_ATTR] = (user.pk, _roles_from_bits(bits))


def user_tournament_roles(*, user: Any, tournament: Tournament) -> frozenset[str]:
    """The roles ``user`` holds in ``tournament`` (the rule: :class:`RolesOf`). No query
    when they were read with the tournament (:func:`remember_roles`), else one, whose
    answer is kept on the instance as well."""
    if user_is_superuser(user=user):
        return ALL_ROLES
    if not user_is_signed_in(user=user):
        return frozenset()
    kept = tournament.__dict__.get(_ROLES_ATTR)
    if kept is not None and kept[0] == user.pk:
        return kept[1]
    roles = RolesOf(F("id"), F("league_id"), user_id=user.pk)
    bits = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(bits=roles)
        .values_list("bits", flat=True)
        .first()
    )
    remember_roles(tournament=tournament, user=user, bits=bits or 0)
    return tournament.__dict__[_ROLES_ATTR][1]


def user_can_view_tournament(*, user: Any, tournament: Tournament) -> bool:
    """Public tournaments of public leagues are visible to all; others to their staff."""
    if tournament.is_public and tournament.league.is_public:
        return True
    return bool(user_tournament_roles(user=user, tournament=tournament))


def user_can_manage_tournament(*, user: Any, tournament: Tournament) -> bool:
    return Role.ORGANIZER in user_tournament_roles(user=user, tournament=tournament)


def game_tournament(*, game: Game) -> Tournament | None:
    """The tournament a game is played in, ``None`` for a friendly game (from the table
    kept on the game when it was read already, see
    :func:`tournaments.selectors.games.remember_table`)."""
    if "_tock_table" in game.__dict__:
        table = game.__dict__["_tock_table"]
    else:
        table = (
            Table.objects.filter(game_id=game.pk)
            .select_related("round__tournament__league")
            .first()
        )
    return table.round.tournament if table else None


def user_can_view_game(*, user: Any, game: Game) -> bool:
    tournament = game_tournament(game=game)
    if tournament is None:
        return True
    return user_can_view_tournament(user=user, tournament=tournament)


def user_can_record_game(*, user: Any, game: Game) -> bool:
    """Organizers, scorekeepers and referees of the game's tournament.

    For a friendly game: its creator, staff and superusers.
    """
    if user_is_superuser(user=user):
        return True
    if not user_is_signed_in(user=user):
        return False
    return _is_game_staff(user=user, game=game, tournament=game_tournament(game=game))


def _is_game_staff(*, user: Any, game: Game, tournament: Tournament | None) -> bool:
    """A signed-in user with a role in the game's tournament, or for a friendly game
    (``tournament`` None) its creator or site staff."""
    if tournament is None:
        return bool(user.is_staff) or game.created_by_id == user.pk
    return bool(user_tournament_roles(user=user, tournament=tournament))


def user_sees_game_in_full(*, user: Any, game: Game, table: Table | None) -> bool:
    """Whether ``user`` sees everything of ``game`` (its infractions nobody has knocked
    on...): everyone once it is over; while in progress whoever may record it (the staff
    of its tournament, league organizers, superusers; for a friendly game its creator
    and site staff). Everyone else sees the kind's public view (``Game.public_summary``).
    ``table`` is the game's, with its round and tournament (already read by the caller;
    None for a friendly game): no query for anonymous visitors or a finished game."""
    if game.is_over or user_is_superuser(user=user):
        return True
    if not user_is_signed_in(user=user):
        return False
    tournament = table.round.tournament if table is not None else None
    return _is_game_staff(user=user, game=game, tournament=tournament)


def user_can_referee_game(*, user: Any, game: Game) -> bool:
    """Organizers and referees of the game's tournament (rulings, adjudicated ends)."""
    if user_is_superuser(user=user):
        return True
    tournament = game_tournament(game=game)
    if tournament is None:
        return user_can_record_game(user=user, game=game)
    roles = user_tournament_roles(user=user, tournament=tournament)
    return bool(roles & {Role.ORGANIZER, Role.REFEREE})


def user_plays_in_game(*, user: Any, game: Game) -> bool:
    """Whether ``user`` plays in ``game``: their account is linked (``Player.user``) to
    a player seated in it. ``SYSTEM`` and anonymous users play in no game. 1 query."""
    if not user_is_signed_in(user=user) or not game.players:
        return False
    return Player.objects.filter(user_id=user.pk, handle__in=list(game.players)).exists()


def ensure_not_playing(*, user: Any, game: Game) -> None:
    """Nobody undoes an event of, rules on or accepts a result of a game they play in,
    whatever their role (superusers included): :class:`PlaysInGame` (403)."""
    if user_plays_in_game(user=user, game=game):
        raise PlaysInGame()


def _deny(user: Any) -> NotAllowed:
    if not user_is_signed_in(user=user) and not _is_system(user):
        return NotAllowed(_("You must be signed in to do this."))
    return NotAllowed()


def ensure_signed_in(*, user: Any) -> None:
    """Any signed-in user (or ``SYSTEM``); anonymous users get "You must be signed in"."""
    if not (user_is_signed_in(user=user) or _is_system(user)):
        raise _deny(user)


def ensure_can_manage_league(*, user: Any, league: League) -> None:
    if not user_can_manage_league(user=user, league=league):
        raise _deny(user)


def ensure_can_manage_tournament(*, user: Any, tournament: Tournament) -> None:
    if not user_can_manage_tournament(user=user, tournament=tournament):
        raise _deny(user)


def ensure_can_record_game(*, user: Any, game: Game) -> None:
    """Refuse users who may not record the game's result: ``GameNotFound`` (404) when
    they may not even see the game (a private tournament's game must not answer
    differently from one that does not exist), ``NotAllowed`` (403) otherwise."""
    if not user_can_record_game(user=user, game=game):
        if user_is_signed_in(user=user) and not user_can_view_game(user=user, game=game):
            raise GameNotFound()
        raise _deny(user)


def user_can_referee_tournament(*, user: Any, tournament: Tournament) -> bool:
    """Organizers and referees of ``tournament`` (its referee list, its calls)."""
    roles = user_tournament_roles(user=user, tournament=tournament)
    return bool(roles & {Role.ORGANIZER, Role.REFEREE})


def ensure_can_referee_tournament(*, user: Any, tournament: Tournament) -> None:
    if not user_can_referee_tournament(user=user, tournament=tournament):
        raise _deny(user)


def ensure_can_referee_game(*, user: Any, game: Game) -> None:
    """Refuse users who may not rule on the game's knocks (organizers and referees of its
    tournament, superusers): ``GameNotFound`` (404) when they may not even see the game,
    ``NotAllowed`` (403) otherwise (anonymous: "You must be signed in")."""
    if not user_can_referee_game(user=user, game=game):
        if user_is_signed_in(user=user) and not user_can_view_game(user=user, game=game):
            raise GameNotFound()
        raise _deny(user)


# --------------------------------------------------------------------------- players' privacy


def _player_tournaments(*, player: Any) -> Any:
    """The tournaments ``player`` is registered or seated in (a queryset, for subqueries)."""
    return Tournament.objects.filter(
        Q(registrations__player=player) | Q(rounds__tables__seats__player=player)
    )


def user_is_player(*, user: Any, player: Any) -> bool:
    """The user's account is linked to ``player``."""
    return user_is_signed_in(user=user) and player.user_id is not None and player.user_id == user.pk


def user_organizes_player(*, user: Any, player: Any) -> bool:
    """Organizers of any tournament ``player`` plays in (tournament or league organizers)."""
    if not user_is_signed_in(user=user):
        return False
    return (
        _player_tournaments(player=player)
        .filter(Q(roles__user=user, roles__role=Role.ORGANIZER) | Q(league__organizers=user))
        .exists()
    )


def user_staffs_player(*, user: Any, player: Any) -> bool:
    """Staff (any role, league organizers) of any tournament ``player`` plays in."""
    if not user_is_signed_in(user=user):
        return False
    return (
        _player_tournaments(player=player)
        .filter(Q(roles__user=user) | Q(league__organizers=user))
        .exists()
    )


def user_can_see_hidden_player(*, user: Any, player: Any) -> bool:
    """Who sees a hidden player's real name and profile: superusers, the player, and the
    staff of their tournaments (they run the event)."""
    return (
        user_is_superuser(user=user)
        or user_is_player(user=user, player=player)
        or user_staffs_player(user=user, player=player)
    )


def user_can_hide_player(*, user: Any, player: Any) -> bool:
    """The player themself, organizers of any tournament they play in, superusers."""
    return (
        user_is_superuser(user=user)
        or user_is_player(user=user, player=player)
        or user_organizes_player(user=user, player=player)
    )


def ensure_can_hide_player(*, user: Any, player: Any) -> None:
    """Anonymous: "You must be signed in" (403); a user who may not even see the (hidden)
    player: ``NotFound`` (404, like a missing handle); anyone else refused: 403."""
    if user_can_hide_player(user=user, player=player):
        return
    if (
        user_is_signed_in(user=user)
        and player.hidden
        and not user_can_see_hidden_player(user=user, player=player)
    ):
        raise NotFound()
    raise _deny(user)


def ensure_can_erase_player(*, user: Any) -> None:
    """Erasing a player is for superusers (``SYSTEM`` included: the command)."""
    if not user_is_superuser(user=user):
        raise _deny(user)

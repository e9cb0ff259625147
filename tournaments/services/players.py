"""Players' privacy (GDPR): hide a profile from public pages, erase a player.

* :func:`player_set_hidden` -- the player (their linked account), an organizer of any
  tournament they play in, or a superuser hides (or shows again) the player's profile.
  Nothing stored changes but the flag: public pages and the API show a hidden player
  under a neutral label (``tournaments.selectors.privacy``), results stay.
* :func:`player_erase` -- superusers only. Handle and display name become a pseudonym
  everywhere, inside the stored game logs too (the one documented exception to
  append-only logs, see :func:`games.erasure.game_rename_player`); every game is
  replayed to prove its result by seat is unchanged, so everyone else's games,
  standings and ratings stay as they were (ratings are keyed by player id). The user
  account is unlinked, not deleted.
"""

from __future__ import annotations

import json
import logging
import secrets
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.erasure import rename_in_json, scrub_text
from games.kinds import reserved_names
from games.models import Game, GameEvent
from outbox.changes import PlayerChanged, change_recorded
from tournaments.errors import InvalidState, NotFound
from tournaments.models import (
    LeagueAudit,
    Player,
    RefereeCall,
    ResultProposal,
    RoundSeating,
    Ruling,
    Seat,
    TournamentAudit,
)
from tournaments.permissions import (
    ensure_can_erase_player,
    ensure_can_hide_player,
    ensure_signed_in,
    user_is_signed_in,
)
from tournaments.seating import SeatingRequest
from tournaments.services.recording import game_rename

logger = logging.getLogger("tournaments.privacy")

#: Prefix of the pseudonymous handle an erased player gets.
ERASED_PREFIX = "erased-"


def _locked_player(player: Player | int | str) -> Player:
    """The player (a Player, an id or a handle) with its row locked."""
    qs = Player.objects.select_for_update()
    try:
        if isinstance(player, Player):
            return qs.get(pk=player.pk)
        if isinstance(player, int):
            return qs.get(pk=player)
        return qs.get(handle=str(player))
    except Player.DoesNotExist as exc:
        raise NotFound() from exc


def player_set_hidden(*, player: Player | int | str, hidden: bool, user: Any) -> Player:
    """Hide the player from public pages (``hidden=True``) or show them again.

    Allowed for the player themself (``Player.user``), organizers of any tournament they
    are registered or seated in, and superusers; anonymous users are refused
    (:class:`NotAllowed`), strangers too (403, or 404 when the player is hidden from
    them). Idempotent; returns the fresh player.
    """
    ensure_signed_in(user=user)
    with transaction.atomic():
        player = _locked_player(player)
        ensure_can_hide_player(user=user, player=player)
        if player.hidden != bool(hidden):
            player.hidden = bool(hidden)
            player.save(update_fields=["hidden"])
            change_recorded(PlayerChanged(player_id=player.pk))  # privacy: pages follow
            logger.info(
                "player %s %s by user %s",
                player.pk,
                "hidden" if hidden else "shown",
                getattr(user, "pk", None) or "system",
            )
    return player


def _new_pseudonym() -> str:
    """A free, valid handle that no kind reserves: ``erased-<12 hex digits>``."""
    reserved = reserved_names()
    for _attempt in range(20):
        handle = f"{ERASED_PREFIX}{secrets.token_hex(6)}"
        if (
            slugify(handle) == handle
            and handle not in reserved
            and not Player.objects.filter(handle=handle).exists()
        ):
            return handle
    raise InvalidState(_("No free pseudonym was found; try again."))  # pragma: no cover


def _json_forms(text: str) -> set[str]:
    """``text`` as it may appear in stored JSON: as is (PostgreSQL's jsonb) and with
    non-ASCII characters escaped (SQLite stores ``json.dumps`` output)."""
    return {text, json.dumps(text)[1:-1]}


def _mentions(*, field: str, texts: list[str]) -> Q:
    """Rows whose JSON ``field`` holds any of ``texts`` in any of its stored forms."""
    mentions = Q()
    for text in set(texts) - {""}:
        for form in _json_forms(text):
            mentions |= Q(**{f"{field}__icontains": form})
    return mentions


def _games_of(player: Player) -> list[int]:
    """Ids of every game that names the player: their seats' games, friendly games
    (a text match on ``players``), and games whose events mention the handle or the
    display name anywhere (e.g. a scorekeeper's note in another game)."""
    handle, name = player.handle, player.display_name
    ids = set(Seat.objects.filter(player=player).values_list("table__game_id", flat=True))
    ids |= set(Game.objects.filter(players__icontains=f'"{handle}"').values_list("pk", flat=True))
    mentions = _mentions(field="data", texts=[handle, name])
    ids |= set(GameEvent.objects.filter(mentions).values_list("game_id", flat=True).distinct())
    return sorted(ids)


def _scrub_admin_log(*, old_texts: list[str], new: str) -> int:
    """Replace the old names in the admin's history (``LogEntry.object_repr``: a player,
    seat, registration or game as it was written then). Returns the rows changed."""
    from django.contrib.admin.models import LogEntry

    query = Q()
    for text in old_texts:
        query |= Q(object_repr__icontains=text)
    changed = []
    for entry in LogEntry.objects.filter(query).only("pk", "object_repr"):
        repr_ = entry.object_repr
        for text in old_texts:
            lower = repr_.lower()
            start = lower.find(text.lower())
            while start >= 0:
                repr_ = repr_[:start] + new + repr_[start + len(text) :]
                lower = repr_.lower()
                start = lower.find(text.lower(), start + len(new))
        entry.object_repr = repr_
        changed.append(entry)
    LogEntry.objects.bulk_update(changed, ["object_repr"])
    return len(changed)


def _rename_in_seatings(*, player: Player, old: str, new: str) -> None:
    """``old`` -> ``new`` in the stored seating request of every round ``player`` sat in."""
    # (a subquery, not a join made distinct: a ``json`` column has no equality)
    rounds = Seat.objects.filter(player=player).values("table__round_id")
    kept = RoundSeating.objects.filter(round_id__in=rounds)
    for seating in kept:
        if seating.request:
            seating.request = SeatingRequest.relabel_json(seating.request, {old: new})
            seating.save(update_fields=["request"])


def _rename_in_records(*, game_ids: list[int], old: str, new: str, texts: list[str]) -> int:
    """``old`` -> ``new`` in the records kept beside the player's games and in the audit
    logs; returns the rows changed. Handles there are labels (a knock's ``knocker`` and
    ``against``, placements, a players' report's ``votes``, a judged ``position``): an
    exact match is renamed, so each record keeps its meaning. Free text (a ruling's or
    proposal's ``note``, a call's ``reason``, an audit line's details) is scrubbed of
    ``old`` and of ``texts`` (the display name) as the games' notes are."""
    changed = 0

    def renamed(value: Any) -> Any:
        return rename_in_json(value, old=old, new=new)

    def scrubbed(text: str) -> str:
        return scrub_text(text, old=old, new=new, texts=texts)

    def save_if_changed(row: Any, fields: dict[str, Any]) -> None:
        nonlocal changed
        fields = {k: v for k, v in fields.items() if getattr(row, k) != v}
        if fields:
            for name, value in fields.items():
                setattr(row, name, value)
            row.save(update_fields=list(fields))
            changed += 1

    for ruling in Ruling.objects.filter(game_id__in=game_ids):
        save_if_changed(
            ruling,
            {
                "knocker": renamed(ruling.knocker),
                "against": renamed(ruling.against),
                "placements": renamed(ruling.placements),
                "previous_placements": renamed(ruling.previous_placements),
                "position": renamed(ruling.position),
                "note": scrubbed(ruling.note),
            },
        )
    for proposal in ResultProposal.objects.filter(game_id__in=game_ids):
        save_if_changed(
            proposal,
            {
                "placements": renamed(proposal.placements),
                "votes": renamed(proposal.votes),
                "note": scrubbed(proposal.note),
            },
        )
    for call in RefereeCall.objects.filter(game_id__in=game_ids):
        save_if_changed(call, {"reason": scrubbed(call.reason)})
    mentions = _mentions(field="details", texts=[old, *texts])
    for model in (TournamentAudit, LeagueAudit):
        for line in model.objects.filter(mentions):
            details = rename_in_json(line.details, old=old, new=new, texts=texts, free_text=True)
            save_if_changed(line, {"details": details})
    return changed


def player_erase(*, player: Player | int | str, user: Any) -> Player:
    """Erase a player's identity (GDPR right to erasure). Superusers only.

    In one transaction, with the player's row and every game of theirs locked (games in
    id order, like every other writer):

    1. a pseudonym ``erased-<random>`` (a valid, free handle no kind reserves) replaces
       the handle in every game they played: players, start event, placements, every
       logged event (:func:`games.erasure.game_rename_player`, which replays the
       rewritten log and refuses if any result by seat would change);
    2. handle and display name become the pseudonym, the user account is unlinked
       (``Player.user = None``; the account itself is not deleted);
    3. the old names are replaced in the admin's history (``LogEntry.object_repr``),
       and the old handle in the seating requests kept by the rounds they sat in
       (:class:`RoundSeating`: the handles are labels there, so each still seats again
       into the same tables);
    4. the old handle in the records beside those games (rulings, proposed and reported
       results with their votes, referee calls) and in the tournaments' and leagues'
       audit logs, free text there scrubbed of both names (:func:`_rename_in_records`).

    Ratings, rating changes, registrations and seats point at the player by id and need
    no change. An audit line (``tournaments.privacy`` logger) names the player's id, the
    pseudonym and the acting user -- never the old names. Returns the erased player.
    """
    ensure_can_erase_player(user=user)
    with transaction.atomic():
        player = _locked_player(player)
        old_handle, old_name = player.handle, player.display_name
        if old_handle.startswith(ERASED_PREFIX) and old_name == old_handle:
            return player  # already erased
        new = _new_pseudonym()
        texts = [t for t in {old_name, old_handle} if t]
        game_ids = _games_of(player)
        for game_id in game_ids:
            game_rename(game=game_id, old=old_handle, new=new, texts=[old_name])
        _rename_in_seatings(player=player, old=old_handle, new=new)
        records = _rename_in_records(
            game_ids=game_ids, old=old_handle, new=new, texts=[t for t in texts if t != old_handle]
        )
        player.handle = new
        player.display_name = new
        player.user = None
        player.save(update_fields=["handle", "display_name", "user"])
        change_recorded(PlayerChanged(player_id=player.pk))  # privacy: pages follow
        admin_rows = _scrub_admin_log(old_texts=sorted(texts, key=len, reverse=True), new=new)
        logger.warning(
            "player %s erased as %s by user %s: %d games rewritten, %d records beside them "
            "and audit lines, %d admin log entries",
            player.pk,
            new,
            user.pk if user_is_signed_in(user=user) else "system",
            len(game_ids),
            records,
            admin_rows,
        )
    return player

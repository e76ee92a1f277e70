"""A position of a game of the family, with make/unmake, an incremental hash and endings."""

from __future__ import annotations

import random
import time

from canter.engine.rules import movegen
from canter.engine.rules.board import cells_of
from canter.engine.rules.move import Move
from canter.engine.rules.outcome import Outcome, ranking_for, team_ranking
from canter.engine.rules.posstring import format_position, parse_position
from canter.engine.rules.variant import KNIGHT, NUMBER_WORDS, Rules, Variant, get_variant

EMPTY = -1


class _Keys:
    """Zobrist keys for one variant; fixed seed, so hashes are the same in every run."""

    def __init__(self, variant: Variant) -> None:
        self.name = variant.name
        rng = random.Random(f"canter-zobrist-{variant.name}")
        size, n = variant.board.size, variant.nseats
        self.piece = [[rng.getrandbits(64) for _ in range(2 * n)] for _ in range(size)]
        self.turn = [rng.getrandbits(64) for _ in range(n)]
        limit = variant.castle_move_limit + 1
        self.castle_moves = [[rng.getrandbits(64) for _ in range(limit + 1)] for _ in range(n)]
        self.duty = [rng.getrandbits(64) for _ in range(size)]
        self.eliminated = [rng.getrandbits(64) for _ in range(n)]


    def __reduce__(self):
        # The keys follow from the game's name: a pickled position (a search job sent to a
        # helper process) carries the name, not some 11 kB of keys.
        return _keys_named, (self.name,)


_KEYS: dict[str, _Keys] = {}


def _keys_named(name: str) -> _Keys:
    return _keys(get_variant(name))

# The last move list that was slow to make, with everything it depends on. In a dense
# capture position (thousands of routes, up to seconds to generate) one `go` asks for the
# same list several times: the session, the search's root, the check of its line. What
# makes a list slow is the routes, not the moves, so the bound is the time it took.
_MEMO_SECONDS = 0.002
_memo: tuple | None = None


def _keys(variant: Variant) -> _Keys:
    keys = _KEYS.get(variant.name)
    if keys is None:
        keys = _KEYS[variant.name] = _Keys(variant)
    return keys


class Position:
    """Pieces, seat to move, Castle Moves used, exit duties, eliminated seats, counters.

    A piece code is `seat * 2 + kind` (kind 0 = Man, 1 = Knight); `cells[c]` is -1 when
    empty. `occ[seat]` and `kn[seat]` are bit sets of that seat's pieces and Knights.
    """

    __slots__ = (
        "variant", "rules", "cells", "occ", "kn", "turn", "castle_moves", "duty",
        "eliminated", "out_together", "quiet", "ply", "hash", "move_stack", "_undo",
        "_hashes", "_ended", "_keys",
    )

    def __init__(self, variant: Variant, rules: Rules | None = None) -> None:
        """An empty board, White/Blue to move; see `start` and `from_string`."""
        self.rules = variant.default_rules if rules is None else rules.for_game(variant)
        # A rules option may change which castles a seat may enter (side_castles).
        self.variant = variant = variant.under(self.rules)
        self.cells = [EMPTY] * variant.board.size
        n = variant.nseats
        self.occ = [0] * n
        self.kn = [0] * n
        self.turn = 0
        self.castle_moves = [0] * n
        # Per seat, the cells of its pieces that must leave their own castle (a bitmask:
        # two can be pending when one stays, unable to move, and another jumps in).
        self.duty = [0] * n
        self.eliminated: tuple[int, ...] = ()
        # How many of the last eliminated seats lost their last pieces to one move (they
        # share a rank). More than one ends the game (a move takes only enemies), so a
        # game in progress always has 1 (`reset_derived` sees to it after a set-up).
        self.out_together = 1
        self.quiet = 0
        self.ply = 0
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []
        self._keys = _keys(variant)
        self.hash = 0
        self._hashes: list[int] = []
        self._ended: Outcome | None = None

    # ---- construction -------------------------------------------------------------
    @classmethod
    def start(cls, variant: Variant | str, rules: Rules | None = None) -> Position:
        if isinstance(variant, str):
            variant = get_variant(variant)
        pos = cls(variant, rules)
        for cell, (seat, kind) in variant.start.items():
            pos.put(cell, seat, kind)
        pos.reset_derived()
        return pos

    @classmethod
    def from_string(cls, text: str, rules: Rules | None = None) -> Position:
        return parse_position(text, lambda variant: cls(variant, rules))

    def to_string(self) -> str:
        return format_position(self)

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"Position({self.to_string()!r})"

    def put(self, cell: int, seat: int, kind: int) -> None:
        """Place a piece (set-up only; call `reset_derived` when done)."""
        self.cells[cell] = seat * 2 + kind
        self.occ[seat] |= 1 << cell
        if kind == KNIGHT:
            self.kn[seat] |= 1 << cell

    def reset_derived(self) -> None:
        """Recompute the hash and the static ending after a set-up; clears the history."""
        self.hash = self.compute_hash()
        self.move_stack = []
        self._undo = []
        self._ended = self._static_ending(None)
        if self._ended is None:
            # Seats without pieces at set-up in a game that goes on (Grand Cam: one of each
            # team) went out apart, not to one move.
            self.out_together = 1
        # After the ending: eliminations and automatic passes at set-up change the hash.
        self._hashes = [self.hash]

    def copy(self) -> Position:
        new = Position.__new__(Position)
        new.variant = self.variant
        new.rules = self.rules
        new.cells = self.cells[:]
        new.occ = self.occ[:]
        new.kn = self.kn[:]
        new.turn = self.turn
        new.castle_moves = self.castle_moves[:]
        new.duty = self.duty[:]
        new.eliminated = self.eliminated
        new.out_together = self.out_together
        new.quiet = self.quiet
        new.ply = self.ply
        new.move_stack = self.move_stack[:]
        new._undo = self._undo[:]
        new._hashes = self._hashes[:]
        new._ended = self._ended
        new._keys = self._keys
        new.hash = self.hash
        return new

    def compute_hash(self) -> int:
        """The hash from scratch (the incremental one must always equal it)."""
        k = self._keys
        h = k.turn[self.turn]
        for cell in self.variant.board.cells:
            code = self.cells[cell]
            if code != EMPTY:
                h ^= k.piece[cell][code]
        for seat, used in enumerate(self.castle_moves):
            h ^= k.castle_moves[seat][used]
        for bits in self.duty:
            for cell in cells_of(bits):
                h ^= k.duty[cell]
        for seat in self.eliminated:
            h ^= k.eliminated[seat]
        return h

    # ---- queries ------------------------------------------------------------------
    def piece_at(self, cell: int) -> tuple[int, str] | None:
        """(seat, "man" or "knight") on `cell`, None if it is empty; CellError for a number
        that is no cell of the board (a negative one would index from the end)."""
        if not (isinstance(cell, int) and 0 <= cell < len(self.cells)
                and (self.variant.board.mask >> cell) & 1):
            self.variant.cell_name(cell)  # (raises the game's CellError)
        code = self.cells[cell]
        if code == EMPTY:
            return None
        return code >> 1, ("man", "knight")[code & 1]

    def pieces(self, seat: int) -> list[int]:
        return cells_of(self.occ[seat])

    def legal_moves(self) -> list[Move]:
        """Legal moves of the seat to move; [] once the game is decided (repetition and
        quiet-move draws aside, which only `outcome` applies)."""
        if self._ended is not None:
            return []
        global _memo
        memo = _memo
        if memo is not None and memo[0] == self.hash and memo[1] == self._memo_key():
            return list(memo[2])
        started = time.perf_counter()
        moves = movegen.generate(self)
        if time.perf_counter() - started >= _MEMO_SECONDS:
            _memo = (self.hash, self._memo_key(), tuple(moves))
        return moves

    def _memo_key(self) -> tuple:
        """All a move list depends on (the hash alone could collide)."""
        return (self.variant, self.rules, self.turn, tuple(self.cells),
                tuple(self.castle_moves), tuple(self.duty), self.eliminated)

    def count_legal_moves(self) -> int:
        if self._ended is not None:
            return 0
        return movegen.count_moves(self)

    def must_capture(self) -> bool:
        return movegen.must_capture(self)

    def repetitions(self) -> int:
        """How many times the current position has occurred (this time included)."""
        h = self.hash
        return self._hashes.count(h)

    def can_claim_draw(self) -> bool:
        """A draw stands to be claimed: the third repetition (unless the rules count no
        repetitions), or the quiet limit reached (which `outcome` also applies)."""
        return (self.rules.repetition != "off" and self.repetitions() >= 3
                or self._quiet_limit_reached())

    def _quiet_limit_reached(self) -> bool:
        return bool(self.rules.quiet_limit) and self.quiet >= self.rules.quiet_limit

    def is_over(self) -> bool:
        return self.outcome() is not None

    def outcome(self) -> Outcome | None:
        """The result if the game is over, with the reason, applying every ending."""
        if self._ended is not None:
            return self._ended
        names = tuple(s.name for s in self.variant.seats)
        n = self.variant.nseats
        # Two players: no legal move always ends the game (Camelot rule 4, ruling R5); the
        # no_move option is the three- and four-seat games' (passes, blockade).
        if n == 2 and not movegen.has_move(self, self.turn):
            mover = 1 - self.turn
            loser_name = names[self.turn]
            if self.occ[mover].bit_count() >= self.variant.win_min_pieces:
                return Outcome(mover, f"{loser_name} has no legal move",
                               ranking_for(n, mover, (self.turn,)), names)
            return Outcome(None, f"{loser_name} has no legal move and {names[mover]} has "
                           "too few pieces to win", ranking_for(n, None, ()), names)
        if self.rules.repetition == "auto" and self.repetitions() >= 3:
            return Outcome(None, "third repetition", ranking_for(n, None, self.eliminated),
                           names)
        if self._quiet_limit_reached():
            what = "capture or castle entry" if self.variant.entry_resets_quiet else "capture"
            return Outcome(None, f"{self.rules.quiet_limit} plies without {what}",
                           ranking_for(n, None, self.eliminated), names)
        return None

    # ---- make / unmake ------------------------------------------------------------
    def push(self, move: Move) -> None:
        v = self.variant
        k = self._keys
        cells = self.cells
        s = self.turn
        start, end = move.start, move.end
        code = cells[start]
        taken = [(c, cells[c]) for c in move.captures] if move.capture_bits else None
        self._undo.append((
            s, self.castle_moves[s], self.duty[:], self.eliminated, self.quiet, self.hash,
            self._ended, taken,
        ))
        h = self.hash
        sb, eb = 1 << start, 1 << end
        cells[start] = EMPTY
        cells[end] = code
        h ^= k.piece[start][code] ^ k.piece[end][code]
        self.occ[s] = (self.occ[s] & ~sb) | eb
        if code & 1:
            self.kn[s] = (self.kn[s] & ~sb) | eb
        target = v.target_bits[s]
        if taken:
            for c, victim in taken:
                cells[c] = EMPTY
                h ^= k.piece[c][victim]
                o = victim >> 1
                self.occ[o] &= ~(1 << c)
                self.kn[o] &= ~(1 << c)
                if (self.duty[o] >> c) & 1:
                    self.duty[o] &= ~(1 << c)
                    h ^= k.duty[c]
            self.quiet = 0
        elif (target & eb) and not (target & sb):
            self.quiet = 0 if v.entry_resets_quiet else self.quiet + 1
        else:
            self.quiet += 1
        if (target & sb) and (target & eb):
            used = self.castle_moves[s]
            h ^= k.castle_moves[s][used] ^ k.castle_moves[s][used + 1]
            self.castle_moves[s] = used + 1
        # Own-castle exit duty: set by a jump ending there, cleared when the piece leaves
        # (or, when duties do not persist, after the owner's next turn whatever moved).
        old = self.duty[s]
        if old or v.own_bits[s] & eb:
            new = old & ~sb if self.rules.exit_duty_persists else 0
            if v.own_bits[s] & eb:
                new |= eb
            for cell in cells_of(old ^ new):
                h ^= k.duty[cell]
            self.duty[s] = new
        self.hash = h
        self.move_stack.append(move)
        self.ply += 1
        if target & eb or self._ended is not None:
            self._ended = self._static_ending(s)
        elif move.capture_bits:
            o = 1 - s
            if (v.nseats == 2 and not v.teams
                    and self.occ[o].bit_count() > v.ending_max_pieces
                    and self.occ[s].bit_count() > v.ending_max_pieces):
                # Both seats still above every count at which a capture can end the
                # game: only the turn moves on.
                self._advance_turn(s)
            else:
                self._ended = self._static_ending(s)
        else:
            # No piece left the board and none entered the target castle, so no ending of
            # pieces can have come about: only the turn moves on.
            self._advance_turn(s)
            if v.teams:
                self._ended = self._team_turn()
            else:
                self._ended = self._pass_stuck_seats(True) if v.nseats > 2 else None
        self._hashes.append(self.hash)

    def push_null(self) -> None:
        """Hand the turn to the other side without a move: two seats only, for the
        search's null-move pruning (never a legal move). Only the turn and the hash change;
        `pop_null` undoes it, and nothing is recorded in the game's history."""
        keys = self._keys.turn
        other = 1 - self.turn
        self.hash ^= keys[self.turn] ^ keys[other]
        self.turn = other

    pop_null = push_null  # handing the turn back is the same flip

    def pop(self) -> Move:
        """Unmake the last move pushed; IndexError if none was."""
        if not self.move_stack:
            raise IndexError("no move to take back: none was pushed on this position")
        move = self.move_stack.pop()
        s, used, duty, eliminated, quiet, h, ended, captured = self._undo.pop()
        self._hashes.pop()
        cells = self.cells
        code = cells[move.end]
        cells[move.end] = EMPTY
        cells[move.start] = code
        sb, eb = 1 << move.start, 1 << move.end
        self.occ[s] = (self.occ[s] & ~eb) | sb
        if code & 1:
            self.kn[s] = (self.kn[s] & ~eb) | sb
        if captured:
            for c, victim in captured:
                cells[c] = victim
                o = victim >> 1
                self.occ[o] |= 1 << c
                if victim & 1:
                    self.kn[o] |= 1 << c
        self.turn = s
        self.castle_moves[s] = used
        self.duty = duty
        self.eliminated = eliminated
        self.out_together = 1  # the position before a move was in progress
        self.quiet = quiet
        self.hash = h
        self._ended = ended
        self.ply -= 1
        return move

    def _static_ending(self, mover: int | None) -> Outcome | None:
        """Endings that need no search of the moves (RULES.md §1 End 1-3, §2 End 1-3).
        Also passes the turn on (`mover` is the seat that just moved, None after set-up)."""
        v = self.variant
        if v.teams:
            return self._team_ending(mover)
        n = v.nseats
        names = tuple(s.name for s in v.seats)
        eliminated = self._eliminate_empty()
        # Seats whose last pieces one move took share a rank (a parsed string says so).
        together = self.out_together
        # After a set-up any seat may already hold its target castle (a parsed string of
        # a won game must stay won).
        for s in range(n) if mover is None else (mover,):
            if (self.occ[s] & v.target_bits[s]).bit_count() >= v.target_pieces:
                castle = v.castle_text(v.target_castle[s])
                words = NUMBER_WORDS.get(v.target_pieces, f"{v.target_pieces} pieces")
                if mover is not None:
                    self._advance_turn(mover)
                return Outcome(s, f"{words} in {castle}",
                               ranking_for(n, s, eliminated, together), names)
        alive = [s for s in range(n) if s not in eliminated]
        if mover is not None:
            self._advance_turn(mover)
        if len(alive) == 1:
            last = alive[0]
            gone = " and ".join(names[s] for s in range(n) if s != last)
            if self.occ[last].bit_count() >= v.win_min_pieces:
                return Outcome(last, f"{gone} {'has' if n == 2 else 'have'} no pieces left",
                               ranking_for(n, last, eliminated, together), names)
            return Outcome(None, f"{gone} has no pieces left and {names[last]} has too few "
                           "pieces to win", ranking_for(n, None, ()), names)  # a draw ties all
        if not alive:
            return Outcome(None, "no pieces left", ranking_for(n, None, eliminated), names)
        if v.bare_max_pieces and all(
            self.occ[s].bit_count() <= v.bare_max_pieces for s in alive
        ):
            return Outcome(None, "each side has at most one piece",
                           ranking_for(n, None, eliminated), names)
        if self.rules.parker_1887 and n == 2:
            # Parker 1887: one piece left against two or more loses (after the bare draw,
            # so one against one stays a draw).
            counts = [self.occ[s].bit_count() for s in range(2)]
            for s in range(2):
                if counts[s] == 1 and counts[1 - s] >= 2:
                    return Outcome(1 - s, f"{names[s]} has one piece left",
                                   ranking_for(n, 1 - s, ()), names)
        if n > 2:
            return self._pass_stuck_seats(mover is not None)
        return None

    def _team_outcome(self, winner: int | None, reason: str) -> Outcome:
        v = self.variant
        names = tuple(s.name for s in v.seats)
        winners = v.partners[winner] if winner is not None else ()
        return Outcome(winner, reason, team_ranking(v.team_of, winner), names, winners)

    def _team_ending(self, mover: int | None) -> Outcome | None:
        """Team games (FAMILY-RULES §6), checked in the law's order: castle entry, both
        opponents gone, then the turn passes on past eliminated and stuck seats (where a
        blockade is found). `mover` is the seat that just moved, None after a set-up."""
        v = self.variant
        self._eliminate_empty()
        for s in range(v.nseats) if mover is None else (mover,):
            if (self.occ[s] & v.target_bits[s]).bit_count() >= v.target_pieces:
                if mover is not None:
                    self._advance_turn(mover)
                return self._team_outcome(s, f"{v.seats[s].name} entered "
                                          f"{v.castle_text(v.target_castle[s])}")
        # Ruling R18: a team whose opponents all have no pieces wins, whatever it has left.
        teams = sorted(set(v.team_of)) if mover is None else [v.team_of[mover]]
        for team in teams:
            foes = [s for s in range(v.nseats) if v.team_of[s] != team]
            mine = [s for s in range(v.nseats) if v.team_of[s] == team]
            if all(s in self.eliminated for s in foes):
                if mover is not None:
                    self._advance_turn(mover)
                if all(s in self.eliminated for s in mine):
                    return self._team_outcome(None, "no pieces left")
                first = mover if mover is not None else self._last_mover(mine)
                gone = " and ".join(v.seats[s].name for s in foes)
                return self._team_outcome(first, f"{gone} have no pieces left")
        if mover is not None:
            self._advance_turn(mover)
        return self._team_turn()

    def _last_mover(self, mine: list[int]) -> int:
        """The seat of `mine` whose move took the other team's last piece, read from a
        parsed position: the turn passed from it to the next seat still in, its partner
        if that one is in (else back to itself). So a game's end and the string written
        of it name the same winner."""
        alive = [s for s in mine if s not in self.eliminated]
        if self.turn in alive:
            others = [s for s in alive if s != self.turn]
            return others[0] if others else self.turn
        return alive[0] if alive else mine[0]

    def _team_turn(self) -> Outcome | None:
        """The turn goes to the next seat in play that can move (passes are automatic,
        §12a). Ruling R17 (no_move="lose"): a seat without a move passes when a partner in
        play has one, otherwise its team is blockaded and loses. no_move="pass": every stuck
        seat passes; the game is drawn when no seat can move."""
        v = self.variant
        n = v.nseats
        for _ in range(n):
            t = self.turn
            if t not in self.eliminated:
                if movegen.has_move(self, t):
                    return None
                if self.rules.no_move == "lose" and not any(
                    p != t and p not in self.eliminated and movegen.has_move(self, p)
                    for p in v.partners[t]
                ):
                    foes = [s for s in range(n) if v.team_of[s] != v.team_of[t]
                            and s not in self.eliminated]
                    team = " and ".join(v.seats[s].name for s in v.partners[t]
                                        if s not in self.eliminated)
                    return self._team_outcome(foes[0] if foes else None,
                                              f"{team} blockaded")
            self._pass_turn()
        return self._team_outcome(None, "no seat can move")

    def _pass_stuck_seats(self, undoable: bool) -> Outcome | None:
        """Three seats: the turn goes to the next seat in play that can move. One that
        cannot passes (no_move="pass"), or is eliminated (no_move="lose"): its pieces leave
        the board, so an eliminated seat is still a seat without pieces."""
        v = self.variant
        n = v.nseats
        for _ in range(n):
            if self.turn not in self.eliminated:
                if movegen.has_move(self, self.turn):
                    return None
                if self.rules.no_move == "lose":
                    stuck = self.turn
                    eliminated = self._eliminate_stuck(stuck, undoable)
                    alive = [s for s in range(n) if s not in eliminated]
                    if len(alive) == 1:
                        self._advance_turn(stuck)
                        names = tuple(s.name for s in v.seats)
                        return Outcome(alive[0], f"{names[stuck]} has no legal move",
                                       ranking_for(n, alive[0], eliminated), names)
            self._pass_turn()
        names = tuple(s.name for s in v.seats)
        return Outcome(None, "no seat can move", ranking_for(n, None, self.eliminated), names)

    def _pass_turn(self) -> None:
        """The seat to move passes: the next seat in turn order (in play or not) moves."""
        k = self._keys
        t = self.turn
        h = self.hash ^ k.turn[t]
        if self.duty[t] and not self.rules.exit_duty_persists:
            # A pass is the seat's turn: an exit duty that does not persist lapses with it.
            for cell in cells_of(self.duty[t]):
                h ^= k.duty[cell]
            self.duty[t] = 0
        self.turn = (self.turn + 1) % self.variant.nseats
        self.hash = h ^ k.turn[self.turn]

    def _eliminate_stuck(self, seat: int, undoable: bool) -> tuple[int, ...]:
        """no_move="lose" with three seats: `seat` cannot move and is out of the game; its
        pieces leave the board (recorded with the last move's captures, so `pop` puts them
        back)."""
        k = self._keys
        removed = []
        for c in cells_of(self.occ[seat]):
            code = self.cells[c]
            removed.append((c, code))
            self.cells[c] = EMPTY
            self.hash ^= k.piece[c][code]
        self.occ[seat] = self.kn[seat] = 0
        for cell in cells_of(self.duty[seat]):
            self.hash ^= k.duty[cell]
        self.duty[seat] = 0
        self.eliminated += (seat,)
        self.out_together = 1
        self.hash ^= k.eliminated[seat]
        if undoable:
            undo = self._undo[-1]
            self._undo[-1] = undo[:7] + ((undo[7] or []) + removed,)
        return self.eliminated

    def _eliminate_empty(self) -> tuple[int, ...]:
        """Seats whose last piece was just captured join the eliminated, in order."""
        out = self.eliminated
        for s in range(self.variant.nseats):
            if not self.occ[s] and s not in out:
                out = out + (s,)
                self.hash ^= self._keys.eliminated[s]
        if len(out) > len(self.eliminated):
            self.out_together = len(out) - len(self.eliminated)
        self.eliminated = out
        return out

    def _advance_turn(self, mover: int) -> None:
        n = self.variant.nseats
        k = self._keys
        t = (mover + 1) % n
        for _ in range(n):
            if t not in self.eliminated:
                break
            t = (t + 1) % n
        self.hash ^= k.turn[self.turn] ^ k.turn[t] if self.turn != t else 0
        self.turn = t

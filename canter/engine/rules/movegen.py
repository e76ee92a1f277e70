"""Legal move generation (RULES.md §1-§2) for any variant of the family.

Two paths share one set of rules: `generate` builds Move objects with one canonical route
each; `count_moves` counts the same moves with whole-board bit operations, for perft's last
ply. Bit sets are Python ints over the board's padded grid (see board.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canter.engine.rules.board import cells_of
from canter.engine.rules.move import Move

if TYPE_CHECKING:
    from canter.engine.rules.position import Position


class SeatView:
    """The masks one seat's move generation needs, computed once per call."""

    __slots__ = (
        "seat", "own", "friend", "enemy", "empty", "target", "step_ok", "jump_ok", "active",
        "knights"
    )

    def __init__(self, pos: Position, seat: int) -> None:
        v = pos.variant
        own = pos.occ[seat]
        allocc = 0
        for bits in pos.occ:
            allocc |= bits
        self.seat = seat
        self.own = own
        # Ruling R13: canter over any friendly piece (own or a partner's); jump only enemies.
        self.friend = friendly(pos, seat)
        self.enemy = allocc & ~self.friend
        self.empty = v.board.mask & ~allocc
        self.target = v.target_bits[seat]
        forbidden = v.forbidden_bits[seat]
        # Plain steps and canter legs never land in the own castle; jumps may.
        self.step_ok = self.empty & ~v.own_bits[seat] & ~forbidden
        self.jump_ok = self.empty & ~forbidden
        # A piece in its target castle never leaves it (only Castle Moves, handled apart).
        self.active = own & ~self.target
        self.knights = pos.kn[seat]


def friendly(pos: Position, seat: int) -> int:
    """The pieces of `seat` and of its partners (just its own outside team games)."""
    partners = pos.variant.partners[seat]
    if len(partners) == 1:
        return pos.occ[seat]
    bits = 0
    for s in partners:
        bits |= pos.occ[s]
    return bits


def can_jump(board, pieces: int, enemy: int, jump_ok: int) -> bool:
    """Does any piece of `pieces` have a jump (enemy neighbour, free cell beyond)?"""
    for o in board.up_shifts:
        if (((pieces << o) & enemy) << o) & jump_ok:
            return True
    for o in board.down_shifts:
        if (((pieces >> o) & enemy) >> o) & jump_ok:
            return True
    return False


def leapers(board, pieces: int, over: int, land: int) -> int:
    """The pieces of `pieces` with a neighbour in `over` and the cell beyond it in `land`:
    those with a jump (`over` the enemy) or a first canter leg (`over` friends)."""
    out = 0
    for o in board.up_shifts:
        out |= ((land >> o) & over) >> o
    for o in board.down_shifts:
        out |= ((land << o) & over) << o
    return out & pieces


def _chains(by_over, around, cur, live, landing, target, captured, route, out) -> None:
    """Every way to go on jumping from `cur` over the enemies in `live` (those not yet
    taken) to cells of `landing` (free cells, and those of the pieces this chain took); a
    chain ends when it cannot continue or when it enters the target castle. `by_over` is
    the board's `leaps_by_over`. Appends (end, captured bits, route) for finished chains."""
    went_on = False
    # The caller has made this test for a chain's later jumps; a first jump (a piece or
    # a Knight's canter landing) is settled by it when no enemy is beside the cell.
    beside = live & around[cur]
    if beside:
        for ob, land, lb in by_over[cur][beside]:
            if landing & lb:
                went_on = True
                rest = live ^ ob
                # The castle ends a chain, and so does a cell with no enemy beside it (the
                # test the call would make first, made here: most chains are one jump).
                if target & lb or not rest & around[land]:
                    out.append((land, captured | ob, route + (land,)))
                else:
                    _chains(by_over, around, land, rest, landing | ob, target, captured | ob,
                            route + (land,), out)
    if not went_on and captured:
        out.append((cur, captured, route))


def _canter_tree(by_over, around, start, over_ok, land_ok, target) -> dict[int, tuple]:
    """Breadth-first canter routes from `start` (`by_over`: the board's `leaps_by_over`):
    {reached cell: its route, start first}. Target cells end the route."""
    routes = {start: (start,)}
    order = [start]
    land_ok &= ~(1 << start)  # cleared too as each cell is reached: no cell twice
    for cell in order:
        # Most cells reached have no friend to canter over: one mask test settles those.
        if (target >> cell) & 1:
            continue
        beside = over_ok & around[cell]
        if not beside:
            continue
        route = routes[cell]
        for _ob, land, lb in by_over[cell][beside]:
            if land_ok & lb:
                land_ok ^= lb
                routes[land] = route + (land,)
                order.append(land)
    return routes


def piece_moves(pos: Position, sv: SeatView, p: int, must_capture: bool,
                charges: bool = True) -> list[Move]:
    """All legal moves of the piece on `p` (not in its target castle). `charges=False`
    says a Knight under a capture duty surely has no charge (only its jumps are looked
    for)."""
    board = pos.variant.board
    by_over = board.leaps_by_over
    around = board.leap_over
    pb = 1 << p
    enemy, target = sv.enemy, sv.target
    free_jump = sv.jump_ok | pb  # the moving piece has left its start
    moves: list[Move] = []
    found: list = []
    if must_capture:
        # Without a duty to capture no piece has a jump from where it stands, so only a
        # Knight's charge (below) can capture: the search from `p` would find nothing.
        _chains(by_over, around, p, enemy, free_jump, target, 0, (p,), found)
    knight = sv.knights & pb if charges or not must_capture else 0
    if knight or not must_capture:
        over_ok = sv.friend & ~pb
        land_ok = sv.step_ok | pb
        tree = _canter_tree(by_over, around, p, over_ok, land_ok, target)
        offering = 0
        if knight:
            for cell in tree:
                if cell != p and not (target >> cell) & 1 and enemy & around[cell]:
                    before = len(found)
                    _chains(by_over, around, cell, enemy, free_jump, target, 0, (cell,), found)
                    if len(found) > before:
                        # A charge: its canter route goes before the jumps found.
                        offering |= 1 << cell
                        canter = tree[cell][:-1]
                        for i in range(before, len(found)):
                            end, captured, route = found[i]
                            found[i] = (end, captured, canter + route)
        if not must_capture:
            for n in board.neighbours[p]:
                if (sv.step_ok >> n) & 1:
                    moves.append(Move(p, n, 0, (p, n), 1))
            if offering:
                # Knight's canter rule: only routes that never land where a jump is offered.
                # (A cell never landed on is never passed through either.)
                tree = _canter_tree(by_over, around, p, over_ok, land_ok & ~offering, target)
            for cell, route in tree.items():
                if cell != p:
                    moves.append(Move(p, cell, 0, route, len(route) - 1))
    if found:
        _add_found(p, found, moves)
    return moves


def _add_found(p: int, found: list, moves: list[Move]) -> None:
    """The moves of the piece on `p` for the chains `found` ((end, captured, route) each),
    one per end and set of pieces taken (two routes may take the same pieces)."""
    if len(found) == 1:  # most often: no set to keep
        end, captured, route = found[0]
        moves.append(Move(p, end, captured, route, len(route) - 1 - captured.bit_count()))
        return
    seen = set()
    for end, captured, route in found:
        key = (end, captured)
        if key not in seen:
            seen.add(key)
            # Route length minus jumps = canter legs; jumps = captured pieces.
            moves.append(Move(p, end, captured, route, len(route) - 1 - captured.bit_count()))


def castle_moves(pos: Position, sv: SeatView) -> list[Move]:
    v = pos.variant
    if pos.castle_moves[sv.seat] >= v.castle_move_limit:
        return []
    out = []
    for p in cells_of(sv.own & sv.target):
        for n in v.board.neighbours[p]:
            if (sv.target >> n) & 1 and (sv.empty >> n) & 1:
                out.append(Move(p, n, 0, (p, n), 1))
    return out


def duty_pieces(pos: Position, seat: int) -> int:
    """The cells (a bitmask) of the seat's pieces that must leave their own castle this
    turn; 0 for none."""
    return pos.duty[seat] & pos.occ[seat]


def generate(pos: Position, seat: int | None = None) -> list[Move]:
    """Legal moves for `seat` (default: the seat to move), ignoring whether the game is over."""
    if seat is None:
        seat = pos.turn
    sv = SeatView(pos, seat)
    board = pos.variant.board
    d = duty_pieces(pos, seat)
    if d:
        # The exit duty replaces the duty to capture elsewhere. With two pieces bound to
        # leave (one stayed, unable to move, when the other jumped in), either may go; if
        # one of them can jump, the move is a capture by one of them (the project's
        # ruling: the duty to capture, narrowed to the pieces that must leave).
        must = can_jump(board, d, sv.enemy, sv.jump_ok)
        moves = []
        for p in cells_of(d):
            moves += piece_moves(pos, sv, p, must)
        if moves:
            return moves
    jumping = leapers(board, sv.active, sv.enemy, sv.jump_ok)
    moves = []
    if jumping:
        # A capture duty: only a piece with a jump where it stands, or a Knight that can
        # canter to one (a charge), has a move. Which Knights might charge is found for
        # all at once, backwards from the cells a jump starts from: most have no charge,
        # and their canter trees need not be built.
        knights = may_charge(board, sv)
        by_over, around = board.leaps_by_over, board.leap_over
        enemy, target, jump_ok = sv.enemy, sv.target, sv.jump_ok
        for p in cells_of(jumping | knights):
            if (knights >> p) & 1:
                moves += piece_moves(pos, sv, p, True, True)
                continue
            # A piece with no charge: its jump chains alone (piece_moves' first step,
            # inlined: most capture duties are these).
            found: list = []
            _chains(by_over, around, p, enemy, jump_ok | (1 << p), target, 0, (p,), found)
            _add_found(p, found, moves)
        return moves
    # No duty: no jump anywhere. A piece that cannot canter has its plain steps only; a
    # Man that can has its steps and canters (piece_moves' order, inlined: most pieces).
    # A Knight may also charge, so piece_moves handles it.
    friend, step_ok, target = sv.friend, sv.step_ok, sv.target
    can = leapers(board, sv.active, friend, step_ok)
    knights = sv.knights
    neighbours, by_over, around = board.neighbours, board.leaps_by_over, board.leap_over
    append = moves.append
    for p in cells_of(sv.active):
        if (can >> p) & 1 and (knights >> p) & 1:
            moves += piece_moves(pos, sv, p, False)
            continue
        for n in neighbours[p]:
            if (step_ok >> n) & 1:
                append(Move(p, n, 0, (p, n), 1))
        if (can >> p) & 1:
            pb = 1 << p
            for cell, route in _canter_tree(by_over, around, p, friend & ~pb, step_ok | pb,
                                            target).items():
                if cell != p:
                    append(Move(p, cell, 0, route, len(route) - 1))
    moves += castle_moves(pos, sv)
    return moves


def leap_origins(board, goal: int, over: int, land: int) -> int:
    """Cells from which a chain of leaps, each over a cell of `over` (friends: a canter;
    enemies: jumps), ends on a cell of `goal`, every landing before the last on a cell of
    `land`. Found backwards, a whole frontier at a time with shifts. A superset of what
    one piece can do: a leap over the moving piece itself, or back onto its start, is not
    ruled out."""
    up, down, mask = board.up_shifts, board.down_shifts, board.mask
    origins = 0
    seen = frontier = goal
    while frontier:
        new = 0
        for o in up:
            new |= ((frontier >> o) & over) >> o
        for o in down:
            new |= ((frontier << o) & over) << o
        new &= mask & ~origins
        origins |= new
        frontier = new & land & ~seen
        seen |= frontier
    return origins


def may_enter_or_charge(pos: Position, sv: SeatView) -> bool:
    """Without a capture duty: could the seat have a move into (or inside) its target
    castle, or a Knight's charge? False only when it surely has neither; True may be wrong
    (a superset, found with shifts). The search tries a killer before generating the moves
    only where such moves, which it orders before killers, cannot exist."""
    board = pos.variant.board
    target, active, friend = sv.target, sv.active, sv.friend
    if sv.own & target:
        return True  # castle moves, or a castle half won: rare, left to the full list
    # Landings between canter legs: free cells the seat may land on, outside the castle
    # (a route ends there).
    landings = sv.step_ok & ~target
    free_target = target & sv.step_ok
    if free_target:
        beside = 0
        for o in board.up_shifts:
            beside |= (free_target >> o) | (free_target << o)
        if beside & active:
            return True  # a step into the castle
        if leap_origins(board, free_target, friend, landings) & active:
            return True  # a canter into the castle
    return bool(may_charge(board, sv))


def may_charge(board, sv: SeatView) -> int:
    """The seat's Knights that might have a charge: canter legs to a cell from which a
    jump starts (and may land on the Knight's own start, which it has left). A superset,
    found for all Knights at once, backwards from those cells."""
    knights = sv.active & sv.knights
    if not knights:
        return 0
    landings = sv.step_ok & ~sv.target  # a canter route ends in the target castle
    jump_from = leapers(board, landings, sv.enemy, sv.jump_ok | knights)
    if not jump_from:
        return 0
    return knights & leap_origins(board, jump_from, sv.friend, landings)


def optional_charges(pos: Position) -> list[Move]:
    """The Knight's charges of the side to move where no capture is compulsory (RULES.md:
    "a charge that is merely available creates no duty"): the captures a quiet position
    still offers. With a capture duty, use `generate`."""
    seat = pos.turn
    if duty_pieces(pos, seat):
        # The exit duty binds the move to the pieces that must leave: a short list.
        return [m for m in generate(pos, seat) if m.capture_bits]
    sv = SeatView(pos, seat)
    knights = may_charge(pos.variant.board, sv)
    moves: list[Move] = []
    for p in cells_of(knights):
        # No piece has a jump where it stands (no duty), so a Knight's captures are its
        # charges alone.
        moves += piece_moves(pos, sv, p, True)
    return moves


def must_capture(pos: Position, seat: int | None = None) -> bool:
    """Is a capture compulsory for `seat` this turn (ignoring the exit duty)?"""
    if seat is None:
        seat = pos.turn
    # SeatView's masks, only those a jump needs: this is asked at every quiescence node.
    v = pos.variant
    allocc = 0
    for bits in pos.occ:
        allocc |= bits
    enemy = allocc & ~friendly(pos, seat)
    jump_ok = v.board.mask & ~allocc & ~v.forbidden_bits[seat]
    return can_jump(v.board, pos.occ[seat] & ~v.target_bits[seat], enemy, jump_ok)


def offers_capture(pos: Position, move: Move) -> bool:
    """Two seats, no teams: would the other side be bound to capture after `move`, a move
    of the side to move that takes nothing and does not enter its target castle? The same
    answer as pushing the move and asking `must_capture`, without the push: only the
    mover's start and end cells change (a canter's route touches no other), and the turn
    passes to the other seat."""
    v = pos.variant
    seat = pos.turn
    other = 1 - seat
    mine = pos.occ[seat] ^ (1 << move.start) ^ (1 << move.end)
    theirs = pos.occ[other]
    jump_ok = v.board.mask & ~(mine | theirs) & ~v.forbidden_bits[other]
    return can_jump(v.board, theirs & ~v.target_bits[other], mine, jump_ok)


def most_taken(pos: Position, seat: int) -> int:
    """The most pieces `seat` could take in one move if it were its turn now; 0 when no
    piece of it has a jump from where it stands (a Knight's charge alone, a canter to a
    jump, is not looked for)."""
    sv = SeatView(pos, seat)
    if not leapers(pos.variant.board, sv.active, sv.enemy, sv.jump_ok):
        return 0
    return max((m.capture_bits.bit_count() for m in generate(pos, seat)), default=0)


def count_moves(pos: Position) -> int:
    """len(generate(pos)) for a game still on, computed without building moves where the
    position allows (no capture duty, no exit duty)."""
    seat = pos.turn
    if duty_pieces(pos, seat):
        return len(generate(pos, seat))
    sv = SeatView(pos, seat)
    board = pos.variant.board
    up, down = board.up_shifts, board.down_shifts
    active, enemy, jump_ok, step_ok = sv.active, sv.enemy, sv.jump_ok, sv.step_ok
    if can_jump(board, active, enemy, jump_ok):
        return len(generate(pos, seat))
    n = len(castle_moves(pos, sv)) if sv.own & sv.target else 0
    # `own` here is what a canter leg may pass over: the seat's and its partners' pieces.
    own, target = sv.friend, sv.target
    # Plain steps: one shift per direction counts every (piece, direction) pair at once.
    # `leapable`: cells with a canter leg (over an own piece to a free cell) from them.
    leapable = 0
    for o in up:
        n += ((active << o) & step_ok).bit_count()
        leapable |= ((step_ok >> o) & own) >> o
    for o in down:
        n += ((active >> o) & step_ok).bit_count()
        leapable |= ((step_ok << o) & own) << o
    legs = leapable & active
    if not legs:
        return n
    # Cells from which a jump would be possible (for the Knight's canter rule).
    offers = 0
    knights = sv.knights & legs
    if knights:
        for o in up:
            offers |= ((jump_ok >> o) & enemy) >> o
        for o in down:
            offers |= ((jump_ok << o) & enemy) << o
    not_target = ~target
    while legs:
        pb = legs & -legs
        legs ^= pb
        first = 0
        for o in up:
            first |= ((pb << o) & own) << o
        for o in down:
            first |= ((pb >> o) & own) >> o
        first &= step_ok
        reach = first | pb
        # Most canters have one leg: flood further only if a landing cell leads on.
        frontier = first & not_target if first & leapable & not_target else 0
        over_ok = own ^ pb
        land_ok = step_ok | pb
        while frontier:
            new = 0
            for o in up:
                new |= ((frontier << o) & over_ok) << o
            for o in down:
                new |= ((frontier >> o) & over_ok) >> o
            new &= land_ok & ~reach
            reach |= new
            frontier = new & not_target
        if pb & knights:
            # A start vacated by the Knight can itself become a landing cell beyond an enemy.
            mine = offers
            for o in up:
                mine |= ((pb >> o) & enemy) >> o
            for o in down:
                mine |= ((pb << o) & enemy) << o
            if reach & mine & not_target & ~pb:
                n += len(piece_moves(pos, sv, pb.bit_length() - 1, False))
                n -= _plain_count(board, pb, step_ok)
                continue
        n += reach.bit_count() - 1
    return n


def _plain_count(board, pb: int, step_ok: int) -> int:
    n = 0
    for o in board.up_shifts:
        n += ((pb << o) & step_ok).bit_count()
    for o in board.down_shifts:
        n += ((pb >> o) & step_ok).bit_count()
    return n


def has_move(pos: Position, seat: int) -> bool:
    """Whether `seat` has any legal move, by bit operations only.

    Sound because every first leg is a move or starts one: a plain step or a canter leg is a
    move (a Knight's leg that lands where a jump is offered starts a charge instead), a jump
    always ends somewhere, and the exit duty only narrows the choice when it leaves some.
    """
    v = pos.variant
    board = v.board
    own = pos.occ[seat]
    friend = friendly(pos, seat)
    allocc = 0
    for bits in pos.occ:
        allocc |= bits
    enemy = allocc & ~friend
    empty = board.mask & ~allocc
    forbidden = v.forbidden_bits[seat]
    step_ok = empty & ~v.own_bits[seat] & ~forbidden
    jump_ok = empty & ~forbidden
    target = v.target_bits[seat]
    active = own & ~target
    for o in board.up_shifts:
        if (active << o) & step_ok or (active >> o) & step_ok:
            return True
        if ((((active << o) & enemy) << o) & jump_ok or (((active << o) & friend) << o) & step_ok
                or (((active >> o) & enemy) >> o) & jump_ok
                or (((active >> o) & friend) >> o) & step_ok):
            return True
    if own & target and pos.castle_moves[seat] < v.castle_move_limit:
        return bool(castle_moves(pos, SeatView(pos, seat)))
    return False

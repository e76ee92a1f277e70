"""Game records: the PGN-like record format (docs/game-records.md) and `canter replay`.

    from canter.adapters.records import GameRecord, read_games, write_game
"""

from canter.adapters.records.format import (
    GameRecord,
    MoveComment,
    RecordError,
    ReplayError,
    ReplayResult,
    game_positions,
    parse_result,
    read_games,
    read_games_file,
    replay_game,
    result_from_ranking,
    result_token,
    score_text,
    write_game,
    write_games,
)

__all__ = [
    "GameRecord", "MoveComment", "RecordError", "ReplayError", "ReplayResult",
    "game_positions", "parse_result", "read_games", "read_games_file", "replay_game",
    "result_from_ranking", "result_token", "score_text", "write_game", "write_games",
]

"""The client library: drive any engine that speaks canter's protocol (docs/client.md).

    from canter.adapters.client import Engine, Limit
"""

from canter.adapters.client.engine import (
    Analysis,
    Engine,
    EngineDied,
    EngineError,
    EngineProtocolError,
    EngineRefused,
    EngineStalled,
    EngineStateError,
    Limit,
    LogRecord,
    PlayResult,
    position_command,
)
from canter.adapters.client.parse import Info, LineError, Option, Score
from canter.adapters.client.referee import BoardLayout, Cell, Piece

__all__ = [
    "Analysis", "BoardLayout", "Cell", "Engine", "EngineDied", "EngineError",
    "EngineProtocolError", "EngineRefused", "EngineStalled", "Piece",
    "EngineStateError", "Info", "LineError", "Limit", "LogRecord", "Option", "PlayResult",
    "Score", "position_command",
]

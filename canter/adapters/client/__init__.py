"""The client library: drive any engine that speaks canter's protocol (docs/client.md).

    from canter.adapters.client import Engine, Limit
"""

from canter.adapters.client.engine import (
    Analysis,
    Engine,
    EngineDied,
    EngineError,
    EngineProtocolError,
    EngineStalled,
    EngineStateError,
    Limit,
    LogRecord,
    PlayResult,
    position_command,
)
from canter.adapters.client.parse import Info, LineError, Option, Score

__all__ = [
    "Analysis", "Engine", "EngineDied", "EngineError", "EngineProtocolError", "EngineStalled",
    "EngineStateError", "Info", "LineError", "Limit", "LogRecord", "Option", "PlayResult",
    "Score", "position_command",
]

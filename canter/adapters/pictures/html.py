"""A game as one self-contained HTML page (no outside files or scripts) that steps through
its SVG boards: buttons, the arrow keys and a clickable move list."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from canter.adapters.pictures.svg import game_svgs
from canter.engine import Move, Position, format_move


def game_html(start: Position, moves: Sequence[Move], title: str = "canter game",
              tags: dict[str, str] | None = None, view: int | None = None) -> str:
    """A single HTML page (no outside files or scripts) stepping through the game: buttons,
    the arrow keys and a clickable move list."""
    v = start.variant
    svgs = game_svgs(start, moves, view)
    texts = [format_move(v, m) for m in moves]
    frames = "\n".join(
        f'<div class="frame" id="ply-{i}"{"" if i == 0 else " hidden"}>{_own_ids(svg, i)}</div>'
        for i, svg in enumerate(svgs)
    )
    move_items = ['<li><a href="#" data-ply="0">start</a></li>']
    pos = start.copy()
    for i, (move, text) in enumerate(zip(moves, texts, strict=True), start=1):
        seat = v.seats[pos.turn].name
        move_items.append(f'<li class="{seat}"><a href="#" data-ply="{i}">'
                          f"{i}. {seat} {html.escape(text)}</a></li>")
        pos.push(move)
    tag_rows = "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(val)}</td></tr>"
        for k, val in (tags or {}).items()
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; background: #f3efe6; color: #222; margin: 1em; }}
main {{ display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }}
#moves {{ max-height: 80vh; overflow-y: auto; min-width: 14em; margin: 0; padding-left: 0;
          list-style: none; }}
#moves a {{ color: inherit; text-decoration: none; padding: 0 .3em; }}
#moves a.current {{ background: #1f8f3a; color: #fff; border-radius: 3px; }}
.controls button {{ font-size: 1.1em; min-width: 3em; }}
table {{ border-collapse: collapse; font-size: .9em; }}
th {{ text-align: left; padding-right: 1em; }}
</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
<table>{tag_rows}</table>
<p class="controls">
<button id="first" title="start (Home)">|&#x25C0;</button>
<button id="prev" title="back (Left)">&#x25C0;</button>
<button id="next" title="forward (Right)">&#x25B6;</button>
<button id="last" title="end (End)">&#x25B6;|</button>
<span id="where"></span>
</p>
<main>
<div id="board">
{frames}
</div>
<ul id="moves">
{"".join(move_items)}
</ul>
</main>
<script>
(function () {{
  var total = {len(svgs) - 1};
  var moves = {json.dumps(texts)};
  var ply = 0;
  function show(n) {{
    n = Math.max(0, Math.min(total, n));
    document.getElementById("ply-" + ply).hidden = true;
    document.getElementById("ply-" + n).hidden = false;
    var links = document.querySelectorAll("#moves a");
    links[ply].classList.remove("current");
    links[n].classList.add("current");
    ply = n;
    document.getElementById("where").textContent =
      n === 0 ? "start" : "ply " + n + " of " + total + ": " + moves[n - 1];
  }}
  document.getElementById("first").onclick = function () {{ show(0); }};
  document.getElementById("prev").onclick = function () {{ show(ply - 1); }};
  document.getElementById("next").onclick = function () {{ show(ply + 1); }};
  document.getElementById("last").onclick = function () {{ show(total); }};
  document.querySelectorAll("#moves a").forEach(function (a) {{
    a.onclick = function (e) {{ e.preventDefault(); show(+a.dataset.ply); }};
  }});
  document.addEventListener("keydown", function (e) {{
    if (e.key === "ArrowLeft") show(ply - 1);
    else if (e.key === "ArrowRight") show(ply + 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(total);
  }});
  // #ply=N opens the page at that ply (links into a game)
  var wanted = /ply=([0-9]+)/.exec(location.hash);
  show(wanted ? +wanted[1] : 0);
}})();
</script>
</body>
</html>
"""


def _own_ids(svg: str, ply: int) -> str:
    """One page holds every frame's picture: each needs its own arrowhead id, or every
    arrow takes the first frame's, which is hidden after the first step (no head)."""
    return (svg.replace('id="arrowhead"', f'id="arrowhead-{ply}"')
            .replace("url(#arrowhead)", f"url(#arrowhead-{ply})"))

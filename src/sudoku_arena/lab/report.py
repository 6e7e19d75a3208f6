"""The run's report: ``summary.json`` and a self-contained ``report.html``.

The page needs nothing but itself: the plots are drawn with matplotlib as SVG and
written inline, the style sheet is in the page, and there is no script. Both files are
written whole or not at all, from the stored games only, so ``--report DIR`` renders
the same page again at any time.
"""

from __future__ import annotations

import html
import io
import json
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.best_response import EXPLOITER
from sudoku_arena.lab.display import (
    FRACTION,
    NOTES,
    PERCENT,
    Shown,
    exploit_cells,
    exploit_columns,
    exploit_groups,
    ladder_rows,
    shown,
    variant_rows,
)
from sudoku_arena.lab.store import write_atomic
from sudoku_arena.lab.summary import summarise_folder

plt.rcParams["svg.hashsalt"] = "sudoku-arena-lab"  # stable element ids: same page each time
plt.rcParams["svg.fonttype"] = "path"  # text as outlines: no font needed to view it

STYLE = """
body{font-family:system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;
color:#222;line-height:1.45}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;
padding:.25rem .6rem;text-align:right}th:first-child,td:first-child{text-align:left}
code{background:#f3f3f3;padding:0 .25rem}.plots{display:flex;flex-wrap:wrap;gap:1rem}
.plots figure{margin:0}figcaption,.notes{font-size:.9rem;color:#555}svg{max-width:100%;height:auto}
"""


def write_report(folder: Path, reference: JsonDict | None = None) -> JsonDict:
    """Recompute the summary of the run in ``folder``; write both files; return it."""
    summary = summarise_folder(folder, reference)
    write_atomic(folder / "summary.json", json.dumps(summary, indent=1) + "\n")
    write_atomic(folder / "report.html", render(summary))
    return summary


def _svg(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _cell(figure: Shown) -> str:
    """A figure's text (see :mod:`~sudoku_arena.lab.display`), the interval set small."""
    value = html.escape(figure.value)
    return f"{value} <small>({html.escape(figure.interval)})</small>" if figure.interval else value


def command(plan: JsonDict) -> str:
    """The command line that plays this run's games again."""
    parts = ["sudoku-arena", "analyze", plan["game"], "--players", ",".join(plan["players"])]
    if plan.get("exploit") and not plan["games"]:
        # The exploit preset's run: its line-ups follow from the bots and player counts.
        parts[3:3] = ["--preset", "exploit"]
        parts += ["--games", str(plan["exploit_games"]), "--seed", str(plan["seed"])]
        if "players" in plan["params"]:
            parts += ["--param", f"players={plan['params']['players']}"]
        if any(EXPLOITER in lineup for lineup in plan["exploit"]):
            parts.append("--exploiter")
        return " ".join(parts + _param_options(plan))
    parts += ["--games", str(plan["games"]), "--seed", str(plan["seed"])]
    parts += _param_options(plan)
    for v in plan["variants"]:
        items = ",".join(f"{k}={val}" for k, val in v["params"].items())
        parts += ["--variant", f"{v['name']}:{items}"]
    if plan["ladder"]:
        parts += ["--ladder", ",".join(plan["ladder"]), "--ladder-games", str(plan["ladder_games"])]
    return " ".join(parts)


def _param_options(plan: JsonDict) -> list[str]:
    parts = []
    for name, value in plan["params"].items():
        if name != "players" and not (name == "grid" and len(str(value)) == 81):
            parts += ["--param", f"{name}={value}"]
    return parts


def render(summary: JsonDict) -> str:
    """The report page of ``summary``."""
    plan = summary["plan"]
    esc = html.escape
    balance = bool(plan["games"])  # an exploit preset's run plays no balance games
    title = f"{'Balance' if balance else 'Exploitability'} of {plan['game']}"
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f"<p>{summary['games']} of {summary['expected_games']} games played; bots "
        f"{esc(', '.join(plan['players']))}; seed {plan['seed']}. Intervals are 95%: "
        "Wilson for rates, bootstrap for the rest. Reproduce with:</p>",
        f"<p><code>{esc(command(plan))}</code></p>",
    ]
    if balance:
        parts += _variant_table(summary["variants"])
    parts += _exploit(summary.get("exploit"))
    parts += _base_verdicts(summary.get("base_verdicts", {}))
    parts += _comparisons(summary.get("comparisons", []))
    parts += _plots(summary)
    parts += _ladder(summary.get("ladder"))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _variant_table(variants: dict[str, JsonDict]) -> list[str]:
    head = "".join(f"<th>{html.escape(n)}</th>" for n in variants)
    rows = variant_rows(variants)
    body = [
        f"<tr><td>{html.escape(r.label)}</td>"
        + "".join(f"<td>{_cell(c)}</td>" for c in r.cells)
        + "</tr>"
        for r in rows
    ]
    notes = [
        f"<li><b>{html.escape(r.label)}</b>: {html.escape(NOTES[r.label])}</li>"
        for r in rows
        if r.label in NOTES
    ]
    return [
        "<h2>Figures</h2>",
        f"<table><thead><tr><th>figure</th>{head}</tr></thead><tbody>",
        *body,
        "</tbody></table>",
        *(["<ul class='notes'>", *notes, "</ul>"] if notes else []),
    ]


def _exploit(exploit: JsonDict | None) -> list[str]:
    """Each bot against the exploit panel: its worst result, then a row per
    strategy, worst first."""
    groups = exploit_groups(exploit)
    if not exploit or not groups:
        return []
    ranked = "score difference" if exploit["measure"] == "margin" else "win rate"
    responses = [s for s in (g.best_response() for g in groups) if s is not None]
    out = [
        "<h2>Against the exploit panel</h2>",
        f"<p>Each bot against every scripted strategy of the game's panel "
        f"(<code>panel:NAME</code>; the bot in one seat, the strategy in the others, seats "
        f"rotated on shared boards), ranked by the bot's {ranked}, worst first. The bot's "
        "score difference is its score minus the others' mean."
        + (
            " The approximate best response is a search at ten times the bot's budget "
            "that asks the bot, rebuilt for every move, what it will answer to each "
            "move it considers (docs/bots.md).</p>"
            if responses
            else "</p>"
        ),
        "<ul>",
        *(f"<li class='worst'>{html.escape(g.worst())}</li>" for g in groups),
        *(f"<li class='best-response'>{html.escape(s)}</li>" for s in responses),
        "</ul>",
    ]
    columns = exploit_columns(groups)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    for g in groups:
        out += [
            f"<h3>{html.escape(g.title())}</h3>",
            f"<table><thead><tr><th>strategy</th>{head}</tr></thead><tbody>",
            *(
                f"<tr><td>{html.escape(r.strategy)}</td>"
                + "".join(f"<td>{_cell(c)}</td>" for c in exploit_cells(r, columns))
                + "</tr>"
                for r in g.rows
            ),
            "</tbody></table>",
        ]
    return out


def _base_verdicts(verdicts: dict[str, str]) -> list[str]:
    if not verdicts:
        return []
    items = [f"<li>{html.escape(v)}</li>" for v in verdicts.values()]
    return ["<h2>The base rules</h2>", "<ul>", *items, "</ul>"]


def _comparisons(comparisons: Sequence[JsonDict]) -> list[str]:
    if not comparisons:
        return []
    out = ["<h2>Variants against the base rules</h2>", "<ul>"]
    for c in comparisons:
        params = ", ".join(f"{k}={v}" for k, v in c["params"].items())
        out.append(
            f"<li><b>{html.escape(c['variant'])}</b> ({html.escape(params)}; "
            f"{c['pairs']} paired games)<ul>"
        )
        out += [f"<li>{html.escape(f['verdict'])}</li>" for f in c["figures"].values()]
        out.append("</ul></li>")
    return [*out, "</ul>"]


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def _plots(summary: JsonDict) -> list[str]:
    variants: dict[str, JsonDict] = summary["variants"]
    shown = {n: m for n, m in variants.items() if m.get("games")}
    if not shown:
        return []
    figs = []
    fig, ax = plt.subplots(figsize=(5, 3))
    for name, m in shown.items():
        ax.hist(m["plies_all"], bins=30, alpha=0.5, label=name)
    ax.set_xlabel("plies")
    ax.set_ylabel("games")
    ax.legend()
    figs.append(_figure(_svg(fig), "Game length (histogram of plies)"))
    fig, ax = plt.subplots(figsize=(5, 3))
    for name, m in shown.items():
        curve = m["branching_curve"]
        xs = [10 * i + 5 for i, y in enumerate(curve) if y is not None]
        ax.plot(xs, [y for y in curve if y is not None], marker="o", label=name)
    ax.set_xlabel("% of the game")
    ax.set_ylabel("legal actions")
    ax.legend()
    figs.append(_figure(_svg(fig), "Branching factor along the game"))
    base = next(iter(shown.values()))
    if len(shown) > 1 and any(len(set(m["scores_all"][0])) > 2 for m in shown.values()):
        fig, ax = plt.subplots(figsize=(5, 3))
        for name, m in shown.items():
            ax.hist(m["scores_all"][0], bins=25, alpha=0.5, label=name)
        ax.set_xlabel("final score of seat 1")
        ax.set_ylabel("games")
        ax.legend()
        figs.append(_figure(_svg(fig), "Seat 1's final scores by variant"))
    scores = base["scores_all"]
    if any(len(set(s)) > 2 for s in scores):
        fig, ax = plt.subplots(figsize=(5, 3))
        for s, values in enumerate(scores):
            ax.hist(values, bins=25, alpha=0.5, label=f"seat {s + 1}")
        ax.set_xlabel("final score")
        ax.set_ylabel("games")
        ax.legend()
        figs.append(_figure(_svg(fig), f"Final scores ({next(iter(shown))})"))
    if base.get("seat_win"):
        fig, ax = plt.subplots(figsize=(5, 3))
        width = 0.8 / len(shown)
        for v, (name, m) in enumerate(shown.items()):
            wins = m.get("seat_win", [])
            bar_x = [s + v * width for s in range(len(wins))]
            ys = [100 * e["value"] for e in wins]
            err = [
                [100 * (e["value"] - e["low"]) for e in wins],
                [100 * (e["high"] - e["value"]) for e in wins],
            ]
            ax.bar(bar_x, ys, width=width, yerr=err, capsize=3, label=name)
        seats = max(len(m.get("seat_win", [])) for m in shown.values())
        ax.set_xticks(
            [s + 0.4 - width / 2 for s in range(seats)], [str(s + 1) for s in range(seats)]
        )
        ax.set_xlabel("seat (1 moves first)")
        ax.set_ylabel("% of games won")
        ax.legend()
        figs.append(_figure(_svg(fig), "Win rate per seat with 95% intervals"))
    return ["<h2>Plots</h2>", "<div class='plots'>", *figs, "</div>"]


def _pct(x: float) -> str:
    return shown({"value": x}, PERCENT).text()


def _ladder(ladder: JsonDict | None) -> list[str]:
    rows = ladder_rows(ladder)
    if not ladder or not rows:
        return []
    luck = ladder.get("luck_index")
    scale = (
        f" The luck index runs from 0, as much skill as the deterministic "
        f"{html.escape(str(luck['reference']))}, to 1, a coin flip."
        if luck
        else ""
    )
    out = [
        "<h2>Skill ladder</h2>",
        f"<p>Round robin, two seats, {ladder['games']} games; Bradley-Terry ratings on the "
        "Elo scale (mean 0) with 95% bootstrap intervals; the spread is the standard "
        f"deviation of the ratings.{scale}</p>",
        "<table><thead><tr><th>figure</th><th>value</th></tr></thead><tbody>",
        *(f"<tr><td>{html.escape(label)}</td><td>{_cell(c)}</td></tr>" for label, c in rows),
        "</tbody></table>",
    ]
    out.append("<table><thead><tr><th>pair</th><th>games</th><th>first bot's score</th></tr>")
    out += [
        f"<tr><td>{html.escape(p['a'])} – {html.escape(p['b'])}</td><td>{p['games']}</td>"
        f"<td>{_pct(p['a_score'])}</td></tr>"
        for p in ladder["pairs"]
    ]
    out.append("</table>")
    if ladder.get("duplicate"):
        out.append(
            "<p>Duplicate play: each pair's games come in twos with the same board and "
            "chance, seats swapped. Share of the variance of the first seat's result:</p>"
        )
        out.append(
            "<table><thead><tr><th>pair</th><th>deal</th><th>players</th><th>rest</th>"
            "<th>boards</th></tr></thead><tbody>"
        )
        out += [
            f"<tr><td>{html.escape(d['a'])} – {html.escape(d['b'])}</td>"
            + "".join(
                f"<td>{_cell(shown(d[k], PERCENT))}</td>" for k in ("deal", "players", "rest")
            )
            + f"<td>{d['blocks']}</td></tr>"
            for d in ladder["duplicate"]
        ]
        out.append("</tbody></table>")
    if ladder.get("luck_by_pair"):
        out.append(
            "<table><thead><tr><th>pair</th><th>first bot's score</th><th>in the reference"
            "</th><th>luck index of the pair</th></tr></thead><tbody>"
        )
        out += [
            f"<tr><td>{html.escape(p['a'])} – {html.escape(p['b'])}</td>"
            f"<td>{_pct(p['game_score'])}</td><td>{_pct(p['reference_score'])}</td>"
            f"<td>{_cell(shown(p, FRACTION))}</td></tr>"
            for p in ladder["luck_by_pair"]
        ]
        out.append("</tbody></table>")
    names = list(ladder["ratings"])
    fig, ax = plt.subplots(figsize=(5, 2.5))
    vals = [ladder["ratings"][n] for n in names]
    ax.errorbar(
        range(len(names)),
        [e["value"] for e in vals],
        yerr=[[e["value"] - e["low"] for e in vals], [e["high"] - e["value"] for e in vals]],
        fmt="o",
        capsize=4,
    )
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("Elo")
    out.append(_figure(_svg(fig), "Ratings with 95% intervals"))
    return out

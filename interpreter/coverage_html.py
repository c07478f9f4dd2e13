"""The coverage report as one HTML page: the clause list with colour marks, and links from
each clause to the YAML lines that carry and test it."""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from .words import plural


def _link(where: str) -> str:
    file, _, line = where.rpartition(":")
    href = Path(file).resolve().as_uri() + f"#L{line}" if file else "#"
    return f'<a href="{html.escape(href)}">{html.escape(where)}</a>'


def page(doc: dict[str, Any]) -> str:
    """Returns the HTML of a coverage document (the JSON `cairn coverage` prints)."""
    t = doc["totals"]["all"]
    rows = []
    for c in doc["clauses"]:
        ok = bool(c["encoded_by"]) and c["tested"]
        mark = "ok" if ok else ("half" if c["encoded_by"] or c["tested_by"] else "no")
        enc = "<br>".join(f"{html.escape(e['what'])} {html.escape(e['name'])} ({_link(e['where'])})" for e in c["encoded_by"])
        tst = "<br>".join(("" if x["ok"] else '<b class="fail">failing:</b> ') + f"{html.escape(x['name'])} ({_link(x['where'])})"
                          for x in c["tested_by"])
        rd = "<br>".join(html.escape(r["reading"]) for r in c["readings"])
        rests = "<br>".join(f"<b>{html.escape(k)}</b>: " + html.escape(", ".join(v)) for k, v in sorted(c["rests_on"].items()))
        anchors = c.get("anchors")
        at = "" if anchors is None else "<br>".join(
            f"{html.escape(a['rulebook'])} {html.escape(a['lines'])} ({_link(a['where'])})"
            + (' <b class="fail">digest does not match</b>' if a["digest_ok"] is False else "") for a in anchors) \
            or '<b class="fail">no anchor</b>'
        origin = "" if c["origin"] == "rulebook" else f'<br><small class="invented">{html.escape(c["origin"])}</small>'
        ran = "" if not c["games"] else html.escape(c["measured"]) if c["exercised"] is None else \
            f"{c['exercised']}/{c['games']}" + (f"<br><small>{html.escape(c['measured'])}</small>" if c["measured"] else "")
        rows.append(f'<tr class="{mark}"><td class="mark"></td><td><b>{html.escape(c["id"])}</b><br>'
                    f'<small>{html.escape(c["section"])} {html.escape(c["label"])}</small>{origin}'
                    + (f'<br><small class="anchor">at {at}</small>' if anchors is not None else "") + "</td>"
                    f'<td>{html.escape(c["kind"])}</td><td>{html.escape(c["summary"])}</td>'
                    f"<td>{enc}</td><td>{tst}</td><td>{ran}</td><td>{rd}</td><td>{rests}</td></tr>")
    kinds = "".join(f"<li>{html.escape(k)}: {v['encoded_and_tested']} of {v['clauses']} ({v['percent']}%)</li>"
                    for k, v in doc["totals"]["by_kind"].items())
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Coverage of {html.escape(doc['game'])}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; }} table {{ border-collapse: collapse; width: 100%; }}
td, th {{ border-bottom: 1px solid #ccc; padding: .3em .5em; vertical-align: top; font-size: 90%; }}
td.mark {{ width: .6em; }} tr.ok td.mark {{ background: #2a2; }} tr.half td.mark {{ background: #e90; }}
tr.no td.mark {{ background: #c22; }} b.fail {{ color: #c22; }} h1 small {{ color: #666; font-weight: normal; }}
</style></head><body>
<h1>Coverage of {html.escape(doc['game'])} <small>{html.escape(' '.join(doc['variants']))}</small></h1>
<p id="total">{t['encoded_and_tested']} of {t['clauses']} clauses encoded and tested by passing scenarios ({t['percent']}%);
random play: {plural(doc['games'], 'game')} of {plural(doc['players'], 'player')}.</p>
<ul>{kinds}</ul>
<table><thead><tr><th></th><th>clause</th><th>kind</th><th>summary</th><th>encoded by</th><th>tested by</th>
<th>games</th><th>readings</th><th>rests on</th></tr></thead><tbody>
{''.join(rows)}
</tbody></table></body></html>
"""

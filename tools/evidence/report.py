# SPDX-License-Identifier: MIT
"""Writes index.html and summary.txt from the sections' data."""
import html
import os
import subprocess
import time


def revision(root):
    try:
        rev = subprocess.run(["git", "-C", root, "describe", "--always", "--dirty"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True).stdout.strip()
    except OSError:
        rev = ""
    return rev or "unknown"


def write(root, outdir, sections):
    stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    rev = revision(root)
    txt = ["Bulkhead certification evidence", "revision %s, generated %s" % (rev, stamp), ""]
    for s in sections:
        mark = "" if s["enforced"] else " (reported, not enforced)"
        txt.append("== %s: %s%s" % (s["title"], s["verdict"], mark))
        for k, v in s["figures"]:
            txt.append("   %-32s %s" % (k, v))
        for n in s["notes"]:
            txt.append("   note: " + n)
        for e in s["errors"][:30]:
            txt.append("   ! " + e)
        if len(s["errors"]) > 30:
            txt.append("   ! ... %d more" % (len(s["errors"]) - 30))
        txt.append("")
    with open(os.path.join(outdir, "summary.txt"), "w") as f:
        f.write("\n".join(txt))

    e = html.escape
    h = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
         "<title>Bulkhead evidence %s</title><style>" % e(rev),
         "body{font-family:sans-serif;max-width:80em;margin:auto}"
         "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #aaa;"
         "padding:2px 6px;font-size:90%;vertical-align:top}"
         ".PASS{color:#070}.FAIL{color:#b00}.NOT{color:#777}</style></head><body>",
         "<h1>Bulkhead certification evidence</h1>",
         "<p>Revision <code>%s</code>, generated %s by <code>make evidence</code>.</p>"
         % (e(rev), e(stamp)), "<table><tr><th>section</th><th>verdict</th><th>enforced by "
         "make test</th></tr>"]
    for s in sections:
        h.append("<tr><td><a href='#%s'>%s</a></td><td class='%s'>%s</td><td>%s</td></tr>"
                 % (e(s["key"]), e(s["title"]), s["verdict"], s["verdict"],
                    "yes" if s["enforced"] else "no"))
    h.append("</table>")
    for s in sections:
        h.append("<h2 id='%s'>%s: <span class='%s'>%s</span></h2>"
                 % (e(s["key"]), e(s["title"]), s["verdict"], s["verdict"]))
        h.append("<table>")
        for k, v in s["figures"]:
            h.append("<tr><th>%s</th><td>%s</td></tr>" % (e(str(k)), e(str(v))))
        h.append("</table>")
        for n in s["notes"]:
            h.append("<p>%s</p>" % e(n))
        if s["errors"]:
            h.append("<ul class='FAIL'>")
            h += ["<li>%s</li>" % e(x) for x in s["errors"]]
            h.append("</ul>")
        for t in s["tables"]:
            h.append("<h3>%s</h3><table><tr>%s</tr>" % (
                e(t["caption"]), "".join("<th>%s</th>" % e(str(c)) for c in t["header"])))
            for r in t["rows"]:
                h.append("<tr>%s</tr>" % "".join("<td>%s</td>" % e(str(c)) for c in r))
            h.append("</table>")
    h.append("</body></html>")
    with open(os.path.join(outdir, "index.html"), "w") as f:
        f.write("\n".join(h))

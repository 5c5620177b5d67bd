"""Reference expansion of RFC 5545 recurrences with python-dateutil, for the unit tests.

Reads JSON {dtstart, tz, all_day, lines, to} on stdin; prints the UTC starts (ISO 8601, Z) of
every occurrence up to `to`. Times are placed with zoneinfo at fold=0: a skipped local time uses
the offset before the gap and a repeated one is the first, as RFC 5545 3.3.5 reads them.
"""
import json
import sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

task = json.load(sys.stdin)
zone = ZoneInfo(task["tz"])
start = datetime.fromisoformat(task["dtstart"]).replace(tzinfo=zone)
to = datetime.fromisoformat(task["to"].replace("Z", "+00:00"))
# dateutil reads RRULE lines; RDATE/EXDATE lines (with TZID, which it does not take) are read here.
rules = rrulestr("\n".join(l for l in task["lines"] if l.startswith("RRULE")), dtstart=start, forceset=True)


def dates(line):
    head, values = line.split(":", 1)
    params = dict(p.split("=", 1) for p in head.split(";")[1:])
    for value in values.split(","):
        if value.endswith("Z"):
            yield datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
        else:
            yield datetime.strptime(value, "%Y%m%dT%H%M%S").replace(tzinfo=ZoneInfo(params.get("TZID", task["tz"])))


for line in task["lines"]:
    if line.startswith("RDATE"):
        for value in dates(line):
            rules.rdate(value)
    elif line.startswith("EXDATE"):
        for value in dates(line):
            rules.exdate(value)
out = []
for occurrence in rules:
    if occurrence.tzinfo is None:
        occurrence = occurrence.replace(tzinfo=zone)
    instant = occurrence.astimezone(timezone.utc)
    if instant > to:
        break
    out.append(instant.strftime("%Y-%m-%dT%H:%M:%SZ"))
print(json.dumps(out))

"""Reference expansion of RFC 5545 recurrences with python-dateutil, for the unit and list tests.

Reads JSON {dtstart, tz, all_day, lines, to} on stdin (dtstart a local wall clock, to an
instant); prints every occurrence starting up to `to`, oldest first, as
{"utc": "...Z", "local": "YYYY-MM-DD HH:MM:SS", "index": n} where index counts from DTSTART.

Timed series are expanded from a zone-aware DTSTART (zoneinfo, fold=0: a skipped local time
takes the offset before the gap, a repeated one is the first, as RFC 5545 3.3.5 reads them);
an UNTIL without Z is read in the series' zone and given to dateutil in UTC, as RFC 5545 wants
it beside a DTSTART with a zone. All-day series are expanded on dates, each placed at 00:00 in
the zone. RDATE/EXDATE values: `Z` instants, `TZID=` wall clocks, the series' zone otherwise,
`VALUE=DATE` dates.
"""
import json
import re
import sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

task = json.load(sys.stdin)
zone = ZoneInfo(task["tz"])
all_day = bool(task.get("all_day"))
start = datetime.fromisoformat(task["dtstart"])
if not all_day:
    start = start.replace(tzinfo=zone)
to = datetime.fromisoformat(task["to"].replace("Z", "+00:00"))


def utc_until(match):
    local = datetime.strptime(match.group(1), "%Y%m%dT%H%M%S").replace(tzinfo=zone)
    return "UNTIL=" + local.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


rule_lines = [line for line in task["lines"] if line.startswith("RRULE")]
if not all_day:
    rule_lines = [re.sub(r"UNTIL=(\d{8}T\d{6})(?![\dZ])", utc_until, line) for line in rule_lines]
rules = rrulestr("\n".join(rule_lines), dtstart=start, forceset=True) if rule_lines else None
if rules is None:
    from dateutil.rrule import rruleset

    rules = rruleset()
    rules.rdate(start)


def dates(line):
    head, values = line.split(":", 1)
    params = dict(p.split("=", 1) for p in head.split(";")[1:])
    for value in values.split(","):
        if params.get("VALUE") == "DATE":
            yield datetime.strptime(value, "%Y%m%d")
        elif value.endswith("Z"):
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
for index, occurrence in enumerate(rules, start=1):
    placed = occurrence.replace(tzinfo=zone) if occurrence.tzinfo is None else occurrence
    instant = placed.astimezone(timezone.utc)
    if instant > to:
        break
    out.append(
        {
            "utc": instant.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "local": instant.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S"),
            "index": index,
        }
    )
print(json.dumps(out))

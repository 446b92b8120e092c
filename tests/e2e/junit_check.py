#!/usr/bin/env python3
"""Reads a JUnit XML report with the junitparser package and prints what it holds as JSON.

Usage: python3 tests/e2e/junit_check.py REPORT.xml

It is how duipai's end-to-end tests read the reports of `duipai test --junit` and
`duipai stress --junit`, and it works by hand on any report: the output is one JSON object
with the totals and every suite's test cases (name, classname, time, passed, each result's
kind, type, message and text, system-out, system-err).

Exit status: 0 when the report was read and its totals agree with its test cases, 1 when
they do not (the problem is printed on stderr), 3 when junitparser is not installed
(`python3 -m pip install junitparser`).
"""

import json
import sys

try:
    from junitparser import JUnitXml, TestSuite
except ImportError:
    sys.stderr.write(
        "junit_check.py reads JUnit reports with the junitparser package, which is not "
        "installed: python3 -m pip install junitparser\n"
    )
    sys.exit(3)


def case_record(case):
    results = [
        {
            "kind": type(result).__name__.lower(),
            "type": result.type,
            "message": result.message,
            "text": result.text or "",
        }
        for result in case.result
    ]
    return {
        "name": case.name,
        "classname": case.classname,
        "time": case.time,
        "passed": case.is_passed,
        "results": results,
        "system_out": case.system_out or "",
        "system_err": case.system_err or "",
    }


def suite_record(suite, problems):
    cases = [case_record(case) for case in suite]
    counted = {
        "tests": len(cases),
        "failures": sum(r["kind"] == "failure" for c in cases for r in c["results"]),
        "errors": sum(r["kind"] == "error" for c in cases for r in c["results"]),
    }
    for key, value in counted.items():
        declared = getattr(suite, key)
        if declared != value:
            problems.append(f"suite {suite.name!r} declares {key}={declared}, has {value}")
    return {"name": suite.name, **counted, "cases": cases}


def main(path):
    report = JUnitXml.fromfile(path)
    suites = [report] if isinstance(report, TestSuite) else list(report)
    problems = []
    records = [suite_record(suite, problems) for suite in suites]
    totals = {
        key: sum(s[key] for s in records) for key in ("tests", "failures", "errors")
    }
    if not isinstance(report, TestSuite):
        for key, value in totals.items():
            declared = getattr(report, key)
            if declared != value:
                problems.append(f"<testsuites> declares {key}={declared}, has {value}")
    print(json.dumps({**totals, "suites": records}))
    if problems:
        sys.stderr.write("\n".join(problems) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: python3 tests/e2e/junit_check.py REPORT.xml\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1]))

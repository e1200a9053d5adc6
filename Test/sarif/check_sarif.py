#!/usr/bin/env python3
"""Checks SARIF files against the SARIF 2.1.0 rules Glint relies on.

Two layers: the JSON Schema subset beside this script (validated with Debian's
python3-jsonschema), and the cross-references a schema cannot express (SARIF 2.1.0
3.27.6 ruleIndex names the rule whose id is ruleId; 3.4.5 an artifactLocation.index
names the artifact with the same uri). Prints one line per problem; exits 1 if any.
Usage: check_sarif.py FILE...
"""
import json
import os
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))


def cross_reference_problems(log):
    problems = []
    for run_index, run in enumerate(log.get("runs", [])):
        rules = run["tool"]["driver"].get("rules", [])
        artifacts = run.get("artifacts", [])
        for result_index, result in enumerate(run.get("results", [])):
            where = "runs[%d].results[%d]" % (run_index, result_index)
            if "ruleIndex" in result:
                index = result["ruleIndex"]
                if index >= len(rules) or rules[index]["id"] != result.get("ruleId"):
                    problems.append(where + ": ruleIndex does not name the rule of ruleId")
            for location in all_locations(result):
                artifact = location.get("physicalLocation", {}).get("artifactLocation")
                if not artifact or "index" not in artifact:
                    continue
                index = artifact["index"]
                if index >= len(artifacts) or artifacts[index]["location"]["uri"] != artifact.get("uri"):
                    problems.append(where + ": artifactLocation.index does not name an artifact with its uri")
    return problems


def all_locations(result):
    yield from result.get("locations", [])
    for flow in result.get("codeFlows", []):
        for thread in flow["threadFlows"]:
            for step in thread["locations"]:
                if "location" in step:
                    yield step["location"]


def main(paths):
    with open(os.path.join(HERE, "sarif-2.1.0-subset.schema.json")) as schema_file:
        schema = json.load(schema_file)
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    failed = False
    for path in paths:
        with open(path, encoding="utf-8") as sarif_file:
            log = json.load(sarif_file)
        problems = ["%s: %s" % ("/".join(map(str, error.absolute_path)) or "(root)", error.message)
                    for error in validator.iter_errors(log)]
        problems += cross_reference_problems(log)
        for problem in problems:
            print("%s: %s" % (path, problem))
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

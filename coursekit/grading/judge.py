"""Run students' functions on inputs, in a separate limited process: the grader's judge.

    python -I judge.py REQUEST.json RESULT.json

REQUEST holds ``{"memory_mb": ..., "seconds": ..., "functions": [{"qid", "name", "source",
"cases": [[label, args], ...]}]}``. RESULT gets ``{qid: [output, ...]}`` where an output is
the function's return value as plain JSON, or ``"raised Error: message"``. coursekit cannot
be imported here (the exercise is to write the measure without it): the grader runs this
script, copied into a fresh folder, in the grading sandbox with coursekit hidden (not in the
sandbox at all, so removing the import blocker below gains nothing). This script imports
nothing from coursekit, so that what judges cannot be changed by what is judged: the
comparison with coursekit's values happens in the grader's process, and a function that
writes RESULT itself only says what it could have returned.
"""

import importlib.abc
import json
import os
import resource
import signal
import sys


class TimeLimit(BaseException):
    """Raised in the student's function when one case runs too long."""


class _NoCoursekit(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "coursekit" or name.startswith("coursekit."):
            raise ImportError("coursekit cannot be used in this exercise")
        return None


def _plain(value):
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1000:
        return "raised OverflowError: returned a whole number too large to compare"
    if isinstance(value, str) and len(value) > 10_000:
        return "raised ValueError: returned a text of over 10,000 characters"
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return f"raised TypeError: returned a {type(value).__name__}"


def _alarm(signum, frame):
    raise TimeLimit()


def run(request):
    results = {}
    for item in request["functions"]:
        namespace = {"__name__": "submission"}
        try:
            exec(compile(item["source"], f"<{item['qid']}>", "exec"), namespace)
            func = namespace[item["name"]]
        except BaseException as error:  # noqa: BLE001 - anything the student's code raises
            message = f"raised {type(error).__name__}: {str(error)[:80]}"
            results[item["qid"]] = [message] * len(item["cases"])
            continue
        outputs = []
        for _label, args in item["cases"]:
            signal.setitimer(signal.ITIMER_REAL, request["seconds"])
            try:
                value = _plain(func(*json.loads(json.dumps(args))))
            except TimeLimit:
                value = f"raised TimeoutError: ran longer than {request['seconds']} s"
            except BaseException as error:  # noqa: BLE001
                value = f"raised {type(error).__name__}: {str(error)[:80]}"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            outputs.append(value)
        results[item["qid"]] = outputs
    return results


def main(request_path, result_path):
    with open(request_path, encoding="utf-8") as f:
        request = json.load(f)
    memory = request["memory_mb"] << 20
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    signal.signal(signal.SIGALRM, _alarm)
    sys.meta_path.insert(0, _NoCoursekit())
    sys.stdout = sys.stderr = open(os.devnull, "w")  # what the functions print is not kept
    results = run(request)
    sys.stdout = sys.__stdout__
    with open(result_path, "w", encoding="utf-8") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

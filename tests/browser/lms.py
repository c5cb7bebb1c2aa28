"""Playing a package in the test LMS (host.html, scorm-again): the learner's side and the LMS's.

`Run` launches a package as an LMS would and acts as the learner; `interactions` and
`outcome` read what the LMS recorded under one set of names for both SCORM versions.
Shared by the browser tests (test_scorm_player.py, test_scorm_kinds.py).
"""

from __future__ import annotations

import json
import re

from lxml import etree

from lmsexport.model import Quiz
from lmsexport.package import Package, WriteOptions
from lmsexport.formats.scorm import writer as scorm

VERSIONS = ("1.2", "2004")


def package(quiz: Quiz, version: str) -> dict[str, bytes]:
    return scorm.write(quiz, WriteOptions(version)).files


def launch_data(files: dict[str, bytes], version: str) -> dict:
    """What an LMS takes from the manifest into the CMI: the pass mark (CAM: masteryscore,
    minNormalizedMeasure -> cmi.student_data.mastery_score / cmi.scaled_passing_score) and
    the time limit (maxtimeallowed, attemptAbsoluteDurationLimit -> max_time_allowed)."""
    manifest = etree.fromstring(files["imsmanifest.xml"])
    if version == "1.2":
        adlcp = "{http://www.adlnet.org/xsd/adlcp_rootv1p2}"
        data = {"mastery_score": manifest.findtext(f".//{adlcp}masteryscore"),
                "max_time_allowed": manifest.findtext(f".//{adlcp}maxtimeallowed")}
        data = {key: value for key, value in data.items() if value}
        return {"student_data": data} if data else {}
    measure = manifest.findtext(".//{http://www.imsglobal.org/xsd/imsss}minNormalizedMeasure")
    limits = manifest.find(".//{http://www.imsglobal.org/xsd/imsss}limitConditions")
    duration = limits.get("attemptAbsoluteDurationLimit") if limits is not None else None
    data = {"scaled_passing_score": measure, "max_time_allowed": duration}
    return {key: value for key, value in data.items() if value}


# ---- Playing a package in the test LMS ----

class Run:
    """One launch of a package in the test LMS, and the learner's actions in it."""

    def __init__(self, page, site, version: str, files: dict[str, bytes], preload: dict | None = None):
        self.page, self.version = page, version
        folder = site.add(Package(files).to_bytes())
        state = {**launch_data(files, version), **(preload or {})}
        if state:
            page.add_init_script(f"window.__SCORM_PRELOAD = {json.dumps(state)};")
        page.goto(f"{site.url}host.html?v={'12' if version == '1.2' else '2004'}&sco={folder}/index.html")
        self.frame = page.frame_locator("#sco")
        self.frame.locator("#stage > *").wait_for()

    @property
    def button(self):
        return self.frame.locator("button.primary")

    def choose(self, *ids: str) -> None:
        for choice_id in ids:
            self.frame.locator(f"input[value='{choice_id}']").check()

    def take(self, answers: list[str]) -> None:
        """Answer each question in turn with immediate feedback: pick, check, go on.
        An answer is letters, several letters for several options."""
        for letters in answers:
            self.choose(*letters)
            self.button.click()
            # Wait for each step to show before the next: the next question reuses option
            # values (a, b, ...), so acting early would tick the old question's inputs.
            self.frame.locator("#feedback").wait_for()
            self.button.click()
            self.frame.locator("#feedback").wait_for(state="detached")

    def text(self, selector: str) -> str:
        return self.frame.locator(selector).inner_text()

    def order(self) -> list[str]:
        return self.frame.locator("input[name=answer]").evaluate_all("inputs => inputs.map(i => i.value)")

    def finished(self) -> dict:
        self.page.wait_for_function("window.__scorm.finished")
        return self.record()

    def record(self) -> dict:
        return self.page.evaluate("window.__scorm")

    def data(self) -> dict:
        """The quiz as the player reads it from its page."""
        return json.loads(self.frame.locator("#quiz-data").text_content())

    def check_clean(self) -> None:
        """Once done: one Initialize, one Terminate, no API call failed, scorm-again logged no
        warning or error, and the page threw nothing."""
        record = self.record()
        assert [call for call in record["calls"] if call["err"] != "0"] == []
        assert [entry for entry in record["log"] if entry[0] >= 3] == []
        assert self.page.errors == []
        calls = [call["fn"] for call in record["calls"]]
        initialize, terminate = ("LMSInitialize", "LMSFinish") if self.version == "1.2" else ("Initialize", "Terminate")
        assert calls.count(initialize) == 1 and calls.count(terminate) == 1


def interactions(version: str, snapshot: dict) -> list[dict]:
    """The recorded interactions, under one set of names for both versions."""
    found = snapshot["cmi"]["interactions"]
    out = []
    for index in sorted(found, key=int):
        item = found[index]
        out.append({
            "id": item["id"],
            "type": item["type"],
            "response": item["student_response" if version == "1.2" else "learner_response"],
            "pattern": item["correct_responses"].get("0", {}).get("pattern"),
            "patterns": [item["correct_responses"][n]["pattern"] for n in sorted(item["correct_responses"], key=int)],
            "result": item["result"],
            "weighting": item["weighting"],
            "latency": item["latency"],
            "when": item["time" if version == "1.2" else "timestamp"],
            "description": item.get("description"),
        })
    return out


LATENCY = {"1.2": re.compile(r"\d{2,4}:\d\d:\d\d(\.\d\d?)?\Z"), "2004": re.compile(r"PT(\d+H)?(\d+M)?\d+(\.\d\d?)?S\Z")}
"""A CMITimespan / timeinterval as the runtime records it: the fraction is optional in both, and
scorm-again writes none for a whole number of seconds (the player's `00:00:01.00` is kept as
`00:00:01`, one attempt in a hundred)."""
WHEN = {"1.2": re.compile(r"\d\d:\d\d:\d\d\Z"), "2004": re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\dZ\Z")}
WRONG_RESULT = {"1.2": "wrong", "2004": "incorrect"}
DELIMITER = {"1.2": ",", "2004": "[,]"}


def outcome(version: str, snapshot: dict) -> dict:
    """Status, score, exit and session time, under one set of names for both versions."""
    cmi = snapshot["cmi"]
    if version == "1.2":
        core = cmi["core"]
        return {"status": core["lesson_status"], "score": core["score"], "exit": core["exit"],
                "session_time": core["session_time"], "suspend_data": cmi["suspend_data"]}
    return {"completion": cmi["completion_status"], "success": cmi["success_status"], "score": cmi["score"],
            "exit": cmi["exit"], "session_time": cmi["session_time"], "suspend_data": cmi["suspend_data"]}


def assert_result(version, snapshot, *, status, percent, earned, total):
    result = outcome(version, snapshot)
    if version == "1.2":
        assert result["status"] == status
        assert result["score"] == {"raw": percent, "min": "0", "max": "100"}
        assert result["exit"] == ""
        assert LATENCY["1.2"].match(result["session_time"])
    else:
        assert result["completion"] == "completed"
        assert result["success"] == (status if status in ("passed", "failed") else "unknown")
        scaled = f"{int(earned) / int(total):.7f}".rstrip("0").rstrip(".")
        assert result["score"] == {"scaled": scaled, "raw": earned, "min": "0", "max": total}
        assert result["exit"] == "normal"
        assert LATENCY["2004"].match(result["session_time"])


def focused(run: Run) -> str:
    return run.frame.locator("body").evaluate(
        "() => { const e = document.activeElement; return `${e.tagName.toLowerCase()}:${e.value || e.textContent}`; }")

"""`xml.serialize()`: indentation that never changes text; `xml.built_once` trees."""

from __future__ import annotations

import threading

from lxml import etree

from lmsexport.xml import built_once, element, parser, serialize, sub


def _written(source: str, verbatim_tags=()) -> str:
    root = etree.fromstring(source, etree.XMLParser(strip_cdata=False))
    verbatim = {node for node in root.iter() if node.tag in verbatim_tags}
    return serialize(root, verbatim).decode().split("\n", 1)[1]


def test_element_only_content_is_indented():
    assert _written("<a><b><c>x</c><d/></b><e/></a>") == (
        "<a>\n  <b>\n    <c>x</c>\n    <d/>\n  </b>\n  <e/>\n</a>\n")


def test_mixed_content_is_written_as_built():
    assert _written("<a><p>a <b>b</b> <i>c</i></p><q/></a>") == (
        "<a>\n  <p>a <b>b</b> <i>c</i></p>\n  <q/>\n</a>\n")
    assert _written("<a><p><b>b</b> tail<c><d/></c></p></a>") == "<a>\n  <p><b>b</b> tail<c><d/></c></p>\n</a>\n"


def test_verbatim_elements_keep_the_space_between_their_children():
    assert _written("<a><div><b>b</b> <i>i</i></div></a>", {"div"}) == "<a>\n  <div><b>b</b> <i>i</i></div>\n</a>\n"


def test_cdata_and_comments_stay():
    assert _written("<a><p><![CDATA[x]]><b/></p><!--c--><q/></a>") == (
        "<a>\n  <p><![CDATA[x]]><b/></p>\n  <!--c-->\n  <q/>\n</a>\n")


def test_space_is_what_python_calls_space():
    # A no-break space is space to Python's str.strip, not to XML: it is indented over.
    assert _written("<a>\u00a0<b/>\u00a0<c/></a>") == "<a>\n  <b/>\n  <c/>\n</a>\n"


def test_built_once_trees_are_copies():
    calls = []

    @built_once
    def outcome(identifier):
        calls.append(identifier)
        node = element("qti:outcomeDeclaration", {"identifier": identifier})
        sub(node, "qti:defaultValue")
        return node

    first = outcome("SCORE")
    first[0].text = "changed"
    second = outcome("SCORE")
    assert calls == ["SCORE"] and second is not first and second[0].text is None


def test_each_thread_reuses_a_parser_of_its_own():
    """lxml's parsers must not be shared between threads; making one per document is slow."""
    theirs = []
    worker = threading.Thread(target=lambda: theirs.append(parser()))
    worker.start()
    worker.join()
    assert parser() is parser() and theirs[0] is not parser()
    assert etree.fromstring(b"<a>&amp;</a>", parser()).text == "&"

"""What a start imports does no work it does not need: the customer citations' rewrite patterns are compiled when
the first citation is made, not when the presentation layer is imported (every command and the first window import
it; few cite anything)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

_PROBE = textwrap.dedent("""
    import json
    import models.present  # what evaluate --json and the first window import
    from models.present import citations
    before = citations._rx.cache_info().currsize
    text = citations.customer_citation("NetAppDocs ontap-systems, 'a70-90/install-overview.adoc' (HEAD 0123abc)")
    print(json.dumps({"before": before, "after": citations._rx.cache_info().currsize, "text": text}))
""")


def test_citation_patterns_are_compiled_on_the_first_citation_only():
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["before"] == 0 and probe["after"] == 1
    # the rewrites still apply, in order: the documentation path becomes its published page, the HEAD note goes
    assert probe["text"] == "https://docs.netapp.com/us-en/ontap-systems/a70-90/install-overview.html"

#!/usr/bin/env python3
"""Regression test of Tools/docs-check.py: it must pass a document whose examples hold, and fail
one whose shown output is wrong, whose command fails, whose exit status differs, whose step
hangs, or which leaves a process running. Needs no build: the documents here run shell builtins
and a fake `fresh` in a scratch --bin directory.

    Tools/docs-check-test.py        (exit status 0 when every case behaves)
"""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs-check.py")
FENCE = "```"


class DocsCheckTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="docs-check-test.")
        self.bin = os.path.join(self.dir.name, "bin")
        os.mkdir(self.bin)
        fake = os.path.join(self.bin, "fresh")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\necho \"fake fresh from the --bin directory: $*\"\n")
        os.chmod(fake, 0o755)

    def tearDown(self):
        self.dir.cleanup()

    def check(self, markdown, *options):
        path = os.path.join(self.dir.name, "doc.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(markdown.replace("~~~", FENCE))
        run = subprocess.run([sys.executable, SCRIPT, "--bin", self.bin, *options, path],
                             capture_output=True, text=True, timeout=120)
        return run.returncode, run.stdout

    def assertPasses(self, markdown, steps):
        status, out = self.check(markdown)
        self.assertEqual(status, 0, out)
        self.assertIn(f"docs-check: {steps} steps in 1 documents, {steps} passed, 0 failed", out)

    def assertFails(self, markdown, failed, *, says, options=()):
        status, out = self.check(markdown, *options)
        self.assertEqual(status, 1, out)
        self.assertIn(f", {failed} failed", out.splitlines()[-1])
        self.assertIn(says, out)

    def test_a_document_whose_examples_hold_passes(self):
        self.assertPasses("""
~~~sh
NAME=world                              # a variable carries to the next block
~~~

~~~sh no-run
exit 3
~~~

~~~sh
echo "hello $NAME"
#> hello world
printf 'a   b  \\n\\nc\\n' >&2               # stderr too, spaces and trailing lines normalised
#> a b
#>
#> c
echo "at 127.0.0.1:4321 on 2026-11-23 22:46:01, 9622 bytes (58423 decoded), 40.4 KiB in 0.41 s"
#> at 127.0.0.1:9999 on 2027-01-01 01:02:03, 10 bytes (1 decoded), 840 B in 12 ms
echo "anything: $RANDOM."
#> anything: ….
false
#> [exit 1]
true
~~~
""", steps=7)

    def test_the_programs_are_the_bin_directorys_even_after_the_documents_own_path(self):
        self.assertPasses("""
~~~sh
export PATH="$PWD/.build/debug:/nonexistent:$PATH"
fresh --version
#> fake fresh from the --bin directory: --version
~~~
""", steps=1)

    def test_a_wrong_output_fails_with_a_diff(self):
        self.assertFails("""
~~~sh
echo right
#> wrong
~~~
""", 1, says="-wrong\n  +right")

    def test_more_or_fewer_lines_fail(self):
        self.assertFails("""
~~~sh
printf 'one\\ntwo\\n'
#> one
echo one
#> one
#> two
~~~
""", 2, says="the output differs")

    def test_a_failing_command_fails_even_with_no_output_shown(self):
        self.assertFails("""
~~~sh
ls /nonexistent-directory
~~~
""", 1, says="exit status 2, expected 0")

    def test_a_different_exit_status_fails(self):
        self.assertFails("""
~~~sh
true
#> [exit 3]
~~~
""", 1, says="exit status 0, expected 3")

    def test_a_hung_step_fails_and_the_rest_of_the_document_is_not_run(self):
        self.assertFails("""
~~~sh
sleep 30
~~~

~~~sh
echo never
#> never
~~~
""", 2, says="no exit status after 1 s (hung)", options=("--timeout", "1"))

    def test_a_process_left_running_fails_the_last_step(self):
        self.assertFails("""
~~~sh
coproc SLEEPER { sleep 300 & echo started; wait; }
read -r LINE <&"${SLEEPER[0]}"
kill $SLEEPER_PID                        # kills the coproc's subshell, not its sleep
~~~
""", 1, says="still running after its last step")

    def test_a_step_that_ends_the_shell_fails_at_once(self):
        self.assertFails("""
~~~sh
coproc SLEEPER { echo started; exec sleep 300; }
read -r LINE <&"${SLEEPER[0]}"
exit 0
~~~
""", 1, says="the shell exited")

    def test_output_without_a_command_fails(self):
        self.assertFails("""
~~~sh
#> orphan
~~~
""", 1, says="expected output with no command before it")


if __name__ == "__main__":
    unittest.main()

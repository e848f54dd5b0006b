"""`python -m i18n check` (what each language lacks) and `python -m i18n extract` (messages.pot)."""

from __future__ import annotations

import sys

from i18n import catalogs


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        sys.stdout.buffer.write(catalogs.template())
        return 0
    if command == "check":
        messages = catalogs.extract()
        skipped = catalogs.fstring_warnings()
        for line in skipped:
            print(line)
        bad = len(skipped)
        for language in catalogs.languages_to_check():
            found = catalogs.problems(language, messages)
            bad += len(found)
            print(f"{language}: {len(messages)} messages, {len(found)} problems")
            for line in found:
                print(f"  {line}")
        return 1 if bad else 0
    print("usage: python -m i18n [check|extract]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

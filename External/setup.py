#!/usr/bin/env python3
"""Installs Glint's dependencies with apt-get and checks them against known_good.json.

Idempotent: packages already installed are left alone (apt-get skips them). After the
install, every package's installed version is compared with the pinned one, and each
difference is printed. A difference is a warning, not a failure (Debian security updates
bump revisions); a package that is missing after the install is a failure.
"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def installed_version(package):
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}|${Version}", package],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return None
    status, _, version = result.stdout.partition("|")
    return version if status.endswith(" installed") else None


def main():
    with open(os.path.join(ROOT, "known_good.json")) as f:
        pinned = json.load(f)["packages"]
    missing = [p for p in pinned if installed_version(p) is None]
    if missing:
        as_root = [] if os.geteuid() == 0 else ["sudo"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        started = time.monotonic()
        print("setup: apt-get update", flush=True)
        subprocess.run(as_root + ["apt-get", "update", "-qq"], check=True, env=env)
        print("setup: installing %d packages with apt-get (a few minutes on a fresh machine): %s"
              % (len(missing), " ".join(missing)), flush=True)
        subprocess.run(as_root + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing,
                       check=True, env=env, stdout=subprocess.DEVNULL)
        print("setup: installed in %.0f s" % (time.monotonic() - started), flush=True)
    failed = False
    for package, want in sorted(pinned.items()):
        have = installed_version(package)
        if have is None:
            print(f"setup: {package} is not installed (wanted {want})")
            failed = True
        elif have != want:
            print(f"setup: {package} is {have}, known_good.json has {want}")
    if failed:
        return 1
    print("setup: dependencies match known_good.json" if not failed else "", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Installs Glint's dependencies with apt-get and checks them against known_good.json.

Then fetches the pinned source files known_good.json lists under "sources" (shaderc's
glslc test suite, from Debian's archive), checks their SHA-256 and unpacks the member
asked for into its folder (.downloads/, ignored by git); a folder already unpacked is
left alone.

Idempotent: packages already installed are left alone (apt-get skips them). After the
install, every package's installed version is compared with the pinned one, and each
difference is printed. A difference is a warning, not a failure (Debian security updates
bump revisions); a package that is missing after the install is a failure.
"""
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def installed_version(package):
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}|${Version}", package],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return None
    status, _, version = result.stdout.partition("|")
    return version if status.endswith(" installed") else None


def fetch_sources(sources):
    """Downloads and unpacks each pinned source; False when one cannot be had."""
    ok = True
    for name, source in sorted(sources.items()):
        into = os.path.join(ROOT, source["into"])
        if os.path.isdir(into):
            continue
        print(f"setup: fetching {name} from {source['url']}", flush=True)
        try:
            with urllib.request.urlopen(source["url"], timeout=120) as response:
                data = response.read()
        except OSError as error:
            print(f"setup: cannot fetch {name}: {error}")
            ok = False
            continue
        digest = hashlib.sha256(data).hexdigest()
        if digest != source["sha256"]:
            print(f"setup: {name}: SHA-256 {digest}, known_good.json has {source['sha256']}")
            ok = False
            continue
        partial = into + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        member = source["member"]
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for entry in archive.getmembers():
                if not entry.name.startswith(member) or not entry.isfile():
                    continue
                relative = entry.name[len(member):]
                if relative.startswith("/") or ".." in relative.split("/"):
                    continue
                target = os.path.join(partial, relative)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with archive.extractfile(entry) as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst)
        os.replace(partial, into)
        print(f"setup: {name} unpacked into {source['into']}", flush=True)
    return ok


def main():
    with open(os.path.join(ROOT, "known_good.json")) as f:
        known_good = json.load(f)
    pinned = known_good["packages"]
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
    if not fetch_sources(known_good.get("sources", {})):
        failed = True
    if failed:
        return 1
    print("setup: dependencies match known_good.json" if not failed else "", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

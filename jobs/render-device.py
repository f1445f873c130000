#!/usr/bin/python3
"""Render a LAVA device dictionary offline, as lava-server would:
render-device.py DICT.jinja2 [OUT.yaml] [KEY=VALUE...]

Templates are looked up next to the dictionary and in jobs/device-types/ (copied from lava-server).
KEY=VALUE pairs are template variables (e.g. rig_disk_dir=/srv/rig/disks)."""
import os
import sys

import jinja2
import yaml


def main():
    args = [a for a in sys.argv[1:] if "=" not in a]
    context = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
    if len(args) not in (1, 2):
        sys.exit(__doc__)
    path = args[0]
    here = os.path.dirname(os.path.abspath(__file__))
    loader = jinja2.FileSystemLoader([os.path.dirname(os.path.abspath(path)),
                                      os.path.join(here, "device-types")])
    env = jinja2.Environment(loader=loader, trim_blocks=True, autoescape=False)
    text = env.get_template(os.path.basename(path)).render(**context)
    yaml.safe_load(text)  # a dictionary that does not render to YAML fails here, not in the lab
    if len(args) == 2:
        with open(args[1], "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()

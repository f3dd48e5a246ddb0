"""The command line the Python results are compared with: `cbi COMMAND --format json` with the
keyword arguments spelled as options (size_x="..." -> --size-x ...; True -> a bare switch; a list
-> the option repeated), as the module spells them."""
import os
import re
import subprocess

CBI = os.path.join(os.environ.get("CBI_BIN", "build/bin"), "cbi")


def cli(command, **options):
    argv = [CBI, command, "--format", "json"]
    for key, value in options.items():
        for item in value if isinstance(value, list) else [value]:
            argv += ["--" + key.replace("_", "-")] + ([] if item is True else [str(item)])
    run = subprocess.run(argv, capture_output=True, text=True)
    return run.returncode, run.stdout, run.stderr


def as_keywords(message):
    """A command line's error as the Python call spells it: the options it names are keywords
    (--cache-bytes -> cache_bytes), as a Python user passed them."""
    return re.sub(r"(?<![\w-])--([a-z][a-z0-9-]*)", lambda m: m.group(1).replace("-", "_"),
                  message)

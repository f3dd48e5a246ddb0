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


# The values the enumerated options list in their help (--model gpu, --policy lru, --order
# column:32): a call writes them quoted after the keyword, model='gpu'.
VALUE = r"(?:sequential|gpu|lru|fifo|random|volta|staged|full|matmul|stencil3d|stencil-smem|" \
        r"stencil|sgemm-tiled|exact|thread|clamp|none|half|float|double|table|json|csv|markdown|" \
        r"(?:linear|tile|column|zigzag|hilbert)(?::[0-9x]+)?)(?![\w:-])"


def as_keywords(message):
    """A command line's error as the Python call spells it: the options it names are keywords
    (--cache-bytes -> cache_bytes), a number or placeholder after one its value (--jobs 64 ->
    jobs=64, --lines N -> lines=N) and a listed value quoted (--model gpu -> model='gpu', --policy
    random or volta -> policy='random' or 'volta'), as a Python user passed them."""
    def keyword(m):
        text = m.group(1).replace("-", "_")
        if m.group(2):
            return text + "=" + m.group(2)
        if m.group(3):
            rest = re.sub(r"((?:, | or ))(" + VALUE + ")", r"\1'\2'", m.group(4) or "")
            return text + "='" + m.group(3) + "'" + rest
        return text
    return re.sub(r"(?<![\w-])--([a-z][a-z0-9-]*)(?: ([0-9][\w.]*|[A-Z]+\b)| (" + VALUE +
                  r")((?:(?:, | or )" + VALUE + r")*))?", keyword, message)

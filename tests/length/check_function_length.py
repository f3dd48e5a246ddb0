#!/usr/bin/env python3
"""Lists the functions longer than a limit (default 120 lines) in the given folders.

A function is a brace-matched body whose opening brace follows a closing parenthesis (a parameter
list, perhaps with const/noexcept/override or a trailing return type) outside any other function:
free functions, member functions (in a class or out of it) and lambdas at namespace or class scope
(a command's registration). A lambda inside a function counts as part of that function. Comments,
string and character literals and preprocessor lines are blanked first, so that their braces do not
count. Its length is the lines from its signature's first line to its closing brace.

Usage: check_function_length.py ROOT [--max N] [--exclude PATH ...] FOLDER ...
Exit 1 (and one line per function) when a function is over the limit, 0 otherwise.
"""
import argparse
import os
import re
import sys

SOURCE_ENDINGS = ('.cpp', '.hpp', '.cu', '.cuh', '.h')


def blank(text):
    """Replaces comments, literals and preprocessor lines by spaces, keeping the newlines."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == '#':
            # A preprocessor line, with its continuations.
            while i < n and text[i] != '\n':
                if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
                    out.append(' \n')
                    i += 2
                    continue
                out.append(' ')
                i += 1
            continue
        if c == '\n':
            out.append(c)
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith('//', i):
            while i < n and text[i] != '\n':
                out.append(' ')
                i += 1
            continue
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^(\s]*)\(', text[i:i + 40])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            end = text.find(')' + raw.group(1) + '"', i + raw.end())
            end = n if end < 0 else end + len(raw.group(1)) + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
            continue
        if c in '"\'':
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(' ')
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(' ' * (min(j + 1, n) - i))
            i = j + 1
            continue
        out.append(c)
        i += 1
    return ''.join(out)


SIGNATURE_END = re.compile(
    r'\)\s*(?:(?:const|noexcept|override|final|mutable|volatile|&&|&)\s*|noexcept\s*\([^()]*\)\s*)*'
    r'(?:->[^;{}()]*)?$')


def function_name(header):
    """The name before the parameter list that ends the header ('lambda' for a lambda)."""
    end = header.rfind(')')
    depth = 0
    for k in range(end, -1, -1):
        if header[k] == ')':
            depth += 1
        elif header[k] == '(':
            depth -= 1
            if depth == 0:
                before = header[:k].rstrip()
                if before.endswith(']') or before.endswith('>') and '[' in before[-80:]:
                    return 'lambda'
                m = re.search(r'(operator\s*\S+|[~\w:]+)$', before)
                return m.group(1) if m else 'lambda'
    return '?'


def long_functions(path, limit):
    """Yields (first line, last line, name) of each function in path longer than limit lines."""
    with open(path, encoding='utf-8', errors='replace') as f:
        text = blank(f.read())
    stack = []  # True for a function body (or anything inside one)
    last_delim = -1
    for i, c in enumerate(text):
        if c == '{':
            inside = bool(stack) and stack[-1][0]
            header = text[last_delim + 1:i]
            if not inside and SIGNATURE_END.search(header.strip()):
                start = last_delim + 1 + (len(header) - len(header.lstrip()))
                stack.append((True, start, function_name(header.strip()), True))
            else:
                stack.append((inside, i, None, False))
            last_delim = i
        elif c == '}':
            if stack:
                _, start, name, is_function = stack.pop()
                if is_function:
                    first = text.count('\n', 0, start) + 1
                    last = text.count('\n', 0, i) + 1
                    if last - first + 1 > limit:
                        yield first, last, name
            last_delim = i
        elif c == ';':
            last_delim = i


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root')
    parser.add_argument('folders', nargs='+')
    parser.add_argument('--max', type=int, default=120)
    parser.add_argument('--exclude', action='append', default=[])
    args = parser.parse_args()
    found = 0
    checked = 0
    for folder in args.folders:
        for dirpath, dirnames, filenames in os.walk(os.path.join(args.root, folder)):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith(SOURCE_ENDINGS):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, args.root)
                if rel in args.exclude:
                    continue
                checked += 1
                for first, last, fname in long_functions(path, args.max):
                    print(f'{rel}:{first}-{last}: {fname} is {last - first + 1} lines '
                          f'(at most {args.max}: split it into named steps)')
                    found += 1
    if checked == 0:
        print('check_function_length.py: no C++ or CUDA source under ' + ' '.join(args.folders))
        return 1
    if found:
        print(f'{found} functions over {args.max} lines in {checked} files')
        return 1
    print(f'no function over {args.max} lines in {checked} files')
    return 0


if __name__ == '__main__':
    sys.exit(main())

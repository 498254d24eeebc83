# shellcheck shell=bash
# Helpers shared by install.sh and hotspot.sh: messages, dry-run aware commands and file writes.
# Sourced, never run. DRY_RUN=1 makes every change print instead of happen.

DRY_RUN=${DRY_RUN:-0}
# Strings never to print (the hotspot password); show_command masks them.
SECRETS=()

say() { printf '==> %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Print a command the way a shell would read it back, secrets masked.
show_command() {
  local line secret
  line=$(printf '%q ' "$@")
  line=${line% }
  for secret in "${SECRETS[@]}"; do
    [ -n "$secret" ] && line=${line//"$(printf '%q' "$secret")"/********}
  done
  printf '+ %s\n' "$line"
}

# Run a command that changes the system; in a dry run only print it.
run() {
  show_command "$@"
  if [ "$DRY_RUN" = 1 ]; then
    return 0
  fi
  "$@"
}

# Write stdin to a file (mode, owner:group) unless it already holds exactly that; print it in a
# dry run. Returns 0 when the file changed (or would), 1 when it was already right.
write_file() {
  local path=$1 mode=$2 owner=$3 content
  content=$(cat)
  if [ -f "$path" ] && [ "$(cat "$path")" = "$content" ]; then
    say "unchanged: $path"
    return 1
  fi
  show_command write "$path" "mode=$mode" "owner=$owner"
  if [ "$DRY_RUN" = 1 ]; then
    printf '%s\n' "$content" | sed 's/^/    | /'
    return 0
  fi
  local tmp
  tmp=$(mktemp "$(dirname "$path")/.tucana.XXXXXX")
  printf '%s\n' "$content" >"$tmp"
  chmod "$mode" "$tmp"
  chown "$owner" "$tmp"
  mv -f "$tmp" "$path"
  return 0
}

# Read one key ("port", "hotspot.ssid") from a TOML file with Python's tomllib; prints nothing
# when the file or the key is missing.
toml_get() {
  local file=$1 key=$2
  [ -r "$file" ] || return 0
  "${SYSTEM_PYTHON:-/usr/bin/python3}" - "$file" "$key" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as handle:
    value = tomllib.load(handle)
for part in sys.argv[2].split("."):
    if not isinstance(value, dict) or part not in value:
        sys.exit(0)
    value = value[part]
print(str(value).lower() if isinstance(value, bool) else value)
PY
}

# Set keys of one [section] of a TOML file in place, keeping every other line and comment.
# Arguments: FILE SECTION KEY=VALUE... (SECTION "" for top-level keys);
# true/false and KEY:int=N are written bare, anything else as a quoted string.
toml_set() {
  local file=$1 section=$2
  shift 2
  local shown=("$@") i
  for i in "${!shown[@]}"; do
    case ${shown[$i]} in password=*) shown[i]='password=********' ;; esac
  done
  show_command toml_set "$file" "[$section]" "${shown[@]}"
  [ "$DRY_RUN" = 1 ] && return 0
  "${SYSTEM_PYTHON:-/usr/bin/python3}" - "$file" "$section" "$@" <<'PY'
import json, os, re, sys, tempfile
path, section, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = open(path, encoding="utf-8").read().splitlines()
def render(key, value):
    if key.endswith(":int"):
        return f"{key[:-4]} = {int(value)}"
    return f"{key} = {value if value in ('true', 'false') else json.dumps(value)}"
if section:
    start = next((i for i, l in enumerate(lines) if l.strip() == f"[{section}]"), None)
    if start is None:
        lines += ["", f"[{section}]"]
        start = len(lines) - 1
else:  # top-level keys: everything before the first [table]
    start = -1
end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
for pair in pairs:
    key, value = pair.split("=", 1)
    pattern = re.compile(rf"^\s*#?\s*{re.escape(key.removesuffix(':int'))}\s*=")
    hit = next((i for i in range(start + 1, end) if pattern.match(lines[i])), None)
    if hit is None:
        lines.insert(end, render(key, value))
        end += 1
    else:
        lines[hit] = render(key, value)
mode = os.stat(path).st_mode & 0o7777
fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tucana.")
with os.fdopen(fd, "w", encoding="utf-8") as out:
    out.write("\n".join(lines) + "\n")
st = os.stat(path)
os.chown(tmp, st.st_uid, st.st_gid)
os.chmod(tmp, mode)
os.replace(tmp, path)
PY
}

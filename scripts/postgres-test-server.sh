#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the leak history's tests: Debian's postgresql (installed when missing), a cluster in
# .build/postgres, listening on 127.0.0.1 only, on a free port, with a random password. Reused while it runs. Writes
# .build/postgres/env, which `make test` sources (`stop` stops it): COORDLENS_TEST_POSTGRES (the address, no password) and
# COORDLENS_TEST_PGPASSWORD. The server refuses to run as root, so as root it runs as the `postgres` user.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/.build/postgres"
mkdir -p "$root"

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin="$(find_bin)"
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "postgres-test-server: install PostgreSQL's server (initdb, pg_ctl), then run make again." >&2
        exit 1
    fi
    # The package's own cluster (port 5432), if it starts, is left alone: the tests use only the one below.
    bash "$(dirname "$0")/apt-install.sh" postgresql
    bin="$(find_bin)"
fi

# As root, the server runs as `postgres`; its data folder must be one that user can reach. A clone under a home folder
# only root can enter is not, so the data then goes to a folder of its own under /tmp, named in .build/postgres/data-path.
as_server() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
data="$root/data"
if [ "$(id -u)" = 0 ]; then
    if ! runuser -u postgres -- test -x "$root"; then
        if [ -s "$root/data-path" ] && [ -d "$(cat "$root/data-path")" ]; then data="$(cat "$root/data-path")"
        else data="$(mktemp -d /tmp/coordlens-postgres.XXXXXX)/data"; echo "$data" >"$root/data-path"; fi
    fi
    mkdir -p "$data"
    chown -R postgres: "$(dirname "$data")" "$data"
    chmod 700 "$data"
fi

# `stop` (make clean): stops the cluster, so that removing .build leaves no server behind.
if [ "${1:-}" = stop ]; then
    if [ -s "$data/PG_VERSION" ]; then as_server "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true; fi
    exit 0
fi

if as_server "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1 && [ -s "$root/env" ]; then
    # A server started before it had TLS is restarted with it.
    if grep -q COORDLENS_TEST_POSTGRES_CA "$root/env"; then exit 0; fi
    as_server "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true
fi

if [ ! -s "$data/PG_VERSION" ]; then
    password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
    printf '%s\n' "$password" >"$root/password"
    chmod 600 "$root/password"
    pwfile="$(dirname "$data")/pwfile.$$"
    printf '%s\n' "$password" >"$pwfile"
    [ "$(id -u)" = 0 ] && chown postgres: "$pwfile"
    as_server "$bin/initdb" -D "$data" -U coordlens --pwfile="$pwfile" --auth-host=scram-sha-256 --auth-local=peer \
        -E UTF8 --locale=C.UTF-8 >"$root/initdb.log" 2>&1 || { cat "$root/initdb.log" >&2; rm -f "$pwfile"; exit 1; }
    rm -f "$pwfile"
fi

# TLS with a self-signed certificate for 127.0.0.1 and localhost: the history's `--postgres-tls` tests connect with and
# without it. The certificate (public) is also the authority the tests trust, in .build/postgres/server.crt.
if [ ! -s "$root/server.crt" ] || [ ! -s "$data/server.key" ]; then
    if ! command -v openssl >/dev/null 2>&1; then
        bash "$(dirname "$0")/apt-install.sh" openssl
    fi
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=localhost" \
        -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" -keyout "$root/server.key" -out "$root/server.crt" >/dev/null 2>&1
    cp "$root/server.crt" "$root/server.key" "$data/"
    rm -f "$root/server.key"
    chmod 600 "$data/server.key"
    [ "$(id -u)" = 0 ] && chown postgres: "$data/server.crt" "$data/server.key"
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
as_server "$bin/pg_ctl" -D "$data" -w -t 60 -l "$data/server.log" \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $data -c max_connections=60 -c fsync=off -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key" start >/dev/null
{
    echo "export COORDLENS_TEST_POSTGRES=postgres://coordlens@127.0.0.1:$port/postgres"
    echo "export COORDLENS_TEST_PGPASSWORD=$(cat "$root/password")"
    echo "export COORDLENS_TEST_POSTGRES_BIN=$bin"
    echo "export COORDLENS_TEST_POSTGRES_CA=$root/server.crt"
} >"$root/env"
chmod 600 "$root/env"
echo "PostgreSQL for the history's tests: 127.0.0.1:$port (cluster in $data)"

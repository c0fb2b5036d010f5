# shellcheck shell=bash disable=SC2034
# Sourced by scripts/cross-image and scripts/cross-build (bash): picks the container engine and
# sets it up for this machine. Not a program of its own.
#
# Docker when a Docker daemon answers (`docker info`), else rootful podman (through sudo when the
# caller is not root). CHESSPI_CROSS_ENGINE=docker|podman forces one.
#
# podman on these VMs needs two settings that its defaults get wrong (see PLATFORM-NOTES,
# "`cross` without a registry"): runc with the cgroupfs manager (crun refuses: "cgroups in hybrid
# mode not supported") and ulimits no higher than the hard limits here (podman's defaults fail:
# "setrlimit RLIMIT_NOFILE: Operation not permitted"). They go into a containers.conf of our own
# under target/cross/, passed with CONTAINERS_CONF: nothing under /etc is changed.

# The images (cross.toml names the second one).
CHESSPI_BASE_IMAGE=localhost/debian:bookworm
CHESSPI_CROSS_IMAGE=localhost/chesspi-cross:aarch64-bookworm

chesspi_sudo=""
[ "$(id -u)" -eq 0 ] || chesspi_sudo="sudo"

# Sets chesspi_engine (docker|podman).
chesspi_pick_engine() {
  chesspi_engine=${CHESSPI_CROSS_ENGINE:-}
  if [ -z "$chesspi_engine" ]; then
    if command -v docker >/dev/null 2>&1 && timeout 20 docker info >/dev/null 2>&1; then
      chesspi_engine=docker
    else
      chesspi_engine=podman
    fi
  fi
  case "$chesspi_engine" in
    docker|podman) ;;
    *) echo "CHESSPI_CROSS_ENGINE must be docker or podman, not '$chesspi_engine'" >&2; return 1 ;;
  esac
}

# Writes target/cross/containers.conf and target/cross/bin/podman, a wrapper that runs the real
# podman (as root, with that configuration); cross is pointed at the wrapper. Sets chesspi_state.
chesspi_setup_podman() {
  local hard_nofile real_podman
  chesspi_state="$PWD/target/cross"
  mkdir -p "$chesspi_state/bin"
  hard_nofile=$($chesspi_sudo bash -c 'ulimit -Hn')
  [ "$hard_nofile" = unlimited ] && hard_nofile=1048576
  cat > "$chesspi_state/containers.conf" <<EOF
# Written by cross/engine.sh (ChessPI): podman settings this machine needs.
[containers]
default_ulimits = ["nofile=$hard_nofile:$hard_nofile", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
  real_podman=$(command -v podman)
  cat > "$chesspi_state/bin/podman" <<EOF
#!/bin/sh
# Written by cross/engine.sh (ChessPI): rootful podman with this machine's settings.
exec $chesspi_sudo env CONTAINERS_CONF="$chesspi_state/containers.conf" "$real_podman" "\$@"
EOF
  chmod 755 "$chesspi_state/bin/podman"
}

# Runs the engine's command line: chesspi_ce image inspect …
chesspi_ce() {
  if [ "$chesspi_engine" = podman ]; then
    "$chesspi_state/bin/podman" "$@"
  else
    docker "$@"
  fi
}

chesspi_image_exists() {
  chesspi_ce image inspect "$1" >/dev/null 2>&1
}

# The image cross.toml names (localhost/chesspi-cross:aarch64-bookworm), built by
# scripts/cross-image: `cross build --target aarch64-unknown-linux-gnu` runs cargo in it.
#
# Debian bookworm, like Raspberry Pi OS Bookworm on the device: its glibc (2.36) bounds the
# symbols the binary needs, and its arm64 libinput (1.22) is new enough for Slint's KMS backend.
# cross's own images are Ubuntu 24.04 (glibc 2.39: the binary would not start on the device) or,
# for 0.2.5, too old for that libinput.
#
# BASE is Debian bookworm made by scripts/cross-image with debootstrap from the machine's apt
# mirror (no image registry needed); its apt sources name that mirror.
ARG BASE=localhost/debian:bookworm
FROM ${BASE}

ARG DEBIAN_FRONTEND=noninteractive
RUN dpkg --add-architecture arm64 \
 && apt-get update \
 && apt-get install -y --no-install-recommends \
      ca-certificates gcc g++ libc6-dev make pkg-config \
      gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross \
      binutils-aarch64-linux-gnu qemu-user \
      libc6:arm64 libinput-dev:arm64 libudev-dev:arm64 libxkbcommon-dev:arm64 \
      libgbm-dev:arm64 libasound2-dev:arm64 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /usr/libexec/qemu-binfmt \
 && ln -sf /usr/bin/qemu-aarch64 /usr/libexec/qemu-binfmt/aarch64-binfmt-P

# Tests that start an arm64 program themselves (the engine's uci_binary) go through the host
# kernel's binfmt_misc. Debian registers qemu-aarch64 there as the path above; without the F flag
# the kernel looks that path up inside the container, so it exists here too (qemu called
# *-binfmt-P takes argv[0] as binfmt_misc's P flag passes it).

# cross runs cargo from the host's toolchain inside this image; these tell it how to link and
# where the arm64 .pc files are (only those: never the host's).
ENV CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=qemu-aarch64 \
    CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc \
    CXX_aarch64_unknown_linux_gnu=aarch64-linux-gnu-g++ \
    AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar \
    PKG_CONFIG_ALLOW_CROSS=1 \
    PKG_CONFIG_LIBDIR_aarch64_unknown_linux_gnu=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
    PKG_CONFIG_SYSROOT_DIR_aarch64_unknown_linux_gnu=/

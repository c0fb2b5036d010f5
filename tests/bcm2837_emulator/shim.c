/* The parts of a Raspberry Pi 3 that rppal's GPIO input code touches, for a process that runs
 * in a private mount namespace with /dev/gpiomem bound to a 4096-byte regular file
 * (see tests/battery_gpio_rppal.rs). Preloaded with LD_PRELOAD.
 *
 * - /dev/gpiochip0 answers GPIO_GET_CHIPINFO_IOCTL as the BCM2835 pin controller: rppal
 *   refuses to start without it, and these kernels have no GPIO subsystem.
 * - The BCM2837 pull resistors: the pads latch GPPUD's control value for every GPPUDCLK0 bit
 *   that rises (datasheet 6.1, "GPIO Pull-up/down Clock Registers"); the registers read back 0
 *   afterwards, so the latch is modelled here and its state kept at PAD_PULL in the same page.
 *   Writes to the mapped page are trapped (page read-only, SIGSEGV) and then looked at:
 *   - x86_64 (the host test): the write is stepped over one instruction (x86 trap flag,
 *     SIGTRAP) with the page made writable.
 *   - aarch64 (the booted device, tests/device/boot_test.py stages battery and bare-pi): the
 *     faulting instruction at the PC is decoded and done here: the page made writable, the
 *     store, the latch, the page read-only again, the PC past it. rppal's register writes
 *     (write_volatile of a u32) compile to three 32-bit store encodings, all handled:
 *       STR  Wt, [Xn, #imm]           unsigned offset      0xB9000000 (mask 0xFFC00000)
 *       STR  Wt, [Xn, Rm{, ext #2}]   register offset      0xB8200800 (mask 0xFFE00C00)
 *       STUR Wt, [Xn, #simm9]         unscaled offset      0xB8000000 (mask 0xFFE00C00)
 *     (Wt may be WZR, Xn may be SP.) Any other instruction writing to the page is a message
 *     on stderr and abort(): never a store silently lost.
 * - GPLEV0: a pin the test drives (its bit set in DRIVEN_MASK) reads the level the test gave
 *   it; a pin it does not drive reads as its pull (up: 1, down or off: 0), recomputed at every
 *   latch. The host test keeps the driven levels at DRIVEN_LEVEL; the device test writes them
 *   straight into GPLEV0 (boot_test.py set_levels), which a latch leaves as they are for the
 *   driven pins.
 * On another architecture the shim only answers the chip ioctl.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define GPIO_GET_CHIPINFO_IOCTL 0x8044B401UL

struct gpiochip_info {
    char name[32];
    char label[32];
    uint32_t lines;
};

static int fd_is(int fd, const char *path) {
    char link[64], target[256];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n < 0)
        return 0;
    target[n] = 0;
    return strcmp(target, path) == 0;
}

#if defined(__x86_64__) || defined(__aarch64__)
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <ucontext.h>

#define PAGE 4096
/* Register indexes (32-bit words). */
#define GPLEV0 (0x34 / 4)
#define GPPUD (0x94 / 4)
#define GPPUDCLK0 (0x98 / 4)
/* The emulator's own state, past the registers (same offsets in tests/battery_gpio_rppal.rs). */
#define PAD_PULL 0x800 /* one byte a pin: 0 off, 1 down, 2 up */
#define DRIVEN_MASK (0x900 / 4)
#define DRIVEN_LEVEL (0x904 / 4)
#define LATCHES (0x908 / 4) /* number of pull latch events, for the test's sanity check */
#define PINS 28

static volatile uint32_t *regs;

static void update_levels(void) {
    volatile uint8_t *pull = (volatile uint8_t *)regs + PAD_PULL;
    uint32_t pulled_up = 0;
    for (int pin = 0; pin < PINS; pin++)
        if (pull[pin] == 2)
            pulled_up |= 1u << pin;
    uint32_t driven = regs[DRIVEN_MASK];
#if defined(__x86_64__)
    uint32_t driven_level = regs[DRIVEN_LEVEL];
#else
    uint32_t driven_level = regs[GPLEV0];
#endif
    regs[GPLEV0] = (driven_level & driven) | (pulled_up & ~driven);
}

/* After one write to the page (the page writable): the pads latch GPPUD's control for every
 * GPPUDCLK0 bit that rose. */
static void latch(uint32_t clock_before) {
    uint32_t rising = regs[GPPUDCLK0] & ~clock_before;
    uint32_t control = regs[GPPUD] & 3;
    if (rising && control != 3) {
        volatile uint8_t *pull = (volatile uint8_t *)regs + PAD_PULL;
        for (int pin = 0; pin < PINS; pin++)
            if (rising & (1u << pin))
                pull[pin] = (uint8_t)control;
        regs[LATCHES] += 1;
        update_levels();
    }
}

#if defined(__x86_64__)
#define TRAP_FLAG 0x100

static uint32_t clock_before;
static int stepping;

static void on_segv(int sig, siginfo_t *info, void *context) {
    ucontext_t *uc = context;
    char *addr = info->si_addr;
    if (regs && !stepping && addr >= (char *)regs && addr < (char *)regs + PAGE) {
        clock_before = regs[GPPUDCLK0];
        mprotect((void *)regs, PAGE, PROT_READ | PROT_WRITE);
        stepping = 1;
        uc->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
        return;
    }
    signal(sig, SIG_DFL); /* not ours: fault again and die as usual */
}

static void on_trap(int sig, siginfo_t *info, void *context) {
    ucontext_t *uc = context;
    (void)info;
    if (!stepping) {
        signal(sig, SIG_DFL);
        return;
    }
    uc->uc_mcontext.gregs[REG_EFL] &= ~TRAP_FLAG;
    stepping = 0;
    latch(clock_before);
    mprotect((void *)regs, PAGE, PROT_READ);
}

static void watch(void *page) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_flags = SA_SIGINFO;
    sa.sa_sigaction = on_segv;
    sigaction(SIGSEGV, &sa, NULL);
    sa.sa_sigaction = on_trap;
    sigaction(SIGTRAP, &sa, NULL);
    regs = page;
    mprotect(page, PAGE, PROT_READ);
}
#else /* __aarch64__ */

/* A message on stderr from the signal handler (write(2) only), then abort(). */
static void die(const char *what, uint32_t insn, uint64_t pc, uint64_t addr) {
    char text[200];
    size_t n = 0;
    const char *parts[] = {"bcm2837 shim: ", what, NULL};
    for (int i = 0; parts[i]; i++)
        for (const char *c = parts[i]; *c && n < 120; c++)
            text[n++] = *c;
    const char *labels[] = {" insn 0x", " pc 0x", " addr 0x"};
    uint64_t values[] = {insn, pc, addr};
    for (int i = 0; i < 3; i++) {
        for (const char *c = labels[i]; *c; c++)
            text[n++] = *c;
        for (int shift = i == 0 ? 28 : 60; shift >= 0; shift -= 4)
            text[n++] = "0123456789abcdef"[(values[i] >> shift) & 15];
    }
    text[n++] = '\n';
    ssize_t ignored = write(2, text, n);
    (void)ignored;
    signal(SIGABRT, SIG_DFL);
    abort();
}

static uint64_t x_or_zero(const mcontext_t *mc, unsigned r) { /* 31: XZR/WZR */
    return r == 31 ? 0 : mc->regs[r];
}

static uint64_t x_or_sp(const mcontext_t *mc, unsigned r) { /* 31: SP */
    return r == 31 ? mc->sp : mc->regs[r];
}

static void on_segv(int sig, siginfo_t *info, void *context) {
    ucontext_t *uc = context;
    mcontext_t *mc = &uc->uc_mcontext;
    char *addr = info->si_addr;
    if (!regs || addr < (char *)regs || addr >= (char *)regs + PAGE) {
        signal(sig, SIG_DFL); /* not ours: fault again and die as usual */
        return;
    }
    uint32_t insn = *(const uint32_t *)mc->pc;
    unsigned rt = insn & 31, rn = (insn >> 5) & 31;
    uint64_t base = x_or_sp(mc, rn), target;
    if ((insn & 0xFFC00000u) == 0xB9000000u) { /* STR Wt, [Xn, #imm12 * 4] */
        target = base + (((insn >> 10) & 0xFFF) << 2);
    } else if ((insn & 0xFFE00C00u) == 0xB8200800u) { /* STR Wt, [Xn, Rm{, ext #2}] */
        uint64_t rm = x_or_zero(mc, (insn >> 16) & 31);
        unsigned option = (insn >> 13) & 7, shift = (insn >> 12) & 1 ? 2 : 0;
        switch (option) {
        case 2: rm = (uint32_t)rm; break;                    /* UXTW */
        case 6: rm = (uint64_t)(int64_t)(int32_t)rm; break; /* SXTW */
        case 3: case 7: break;                              /* LSL, SXTX */
        default: die("unallocated STR (register) extend", insn, mc->pc, (uint64_t)addr);
        }
        target = base + (rm << shift);
    } else if ((insn & 0xFFE00C00u) == 0xB8000000u) { /* STUR Wt, [Xn, #simm9] */
        int64_t imm9 = (int64_t)((insn >> 12) & 0x1FF);
        if (imm9 & 0x100)
            imm9 -= 0x200;
        target = base + (uint64_t)imm9;
    } else {
        die("unknown instruction writing the GPIO registers", insn, mc->pc, (uint64_t)addr);
    }
    if (target != (uint64_t)addr || (target & 3))
        die("decoded address is not the faulting one", insn, mc->pc, target);
    uint32_t clock_before = regs[GPPUDCLK0];
    mprotect((void *)regs, PAGE, PROT_READ | PROT_WRITE);
    *(volatile uint32_t *)target = (uint32_t)x_or_zero(mc, rt);
    latch(clock_before);
    mprotect((void *)regs, PAGE, PROT_READ);
    mc->pc += 4;
}

static void watch(void *page) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_flags = SA_SIGINFO;
    sa.sa_sigaction = on_segv;
    sigaction(SIGSEGV, &sa, NULL);
    regs = page;
    mprotect(page, PAGE, PROT_READ);
}
#endif

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    static void *(*real)(void *, size_t, int, int, int, off_t);
    if (!real)
        real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    void *p = real(addr, len, prot, flags, fd, off);
    if (p != MAP_FAILED && fd >= 0 && len <= PAGE && off == 0 && fd_is(fd, "/dev/gpiomem"))
        watch(p);
    return p;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    return mmap(addr, len, prot, flags, fd, off);
}
#endif /* __x86_64__ || __aarch64__ */

int ioctl(int fd, unsigned long request, ...) {
    static int (*real)(int, unsigned long, ...);
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (request == GPIO_GET_CHIPINFO_IOCTL && fd_is(fd, "/dev/gpiochip0")) {
        struct gpiochip_info *chip = arg;
        memset(chip, 0, sizeof *chip);
        strcpy(chip->name, "gpiochip0");
        strcpy(chip->label, "pinctrl-bcm2835");
        chip->lines = 54;
        return 0;
    }
    if (!real)
        real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    return real(fd, request, arg);
}

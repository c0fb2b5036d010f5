/* The parts of a Raspberry Pi 3 that rppal's GPIO input code touches, for a process that runs
 * in a private mount namespace with /dev/gpiomem bound to a 4096-byte regular file
 * (see tests/battery_gpio_rppal.rs). Preloaded with LD_PRELOAD.
 *
 * - /dev/gpiochip0 answers GPIO_GET_CHIPINFO_IOCTL as the BCM2835 pin controller: rppal
 *   refuses to start without it, and these kernels have no GPIO subsystem.
 * - The BCM2837 pull resistors: the pads latch GPPUD's control value for every GPPUDCLK0 bit
 *   that rises (datasheet 6.1, "GPIO Pull-up/down Clock Registers"); the registers read back 0
 *   afterwards, so the latch is modelled here and its state kept at PAD_PULL in the same page.
 *   Writes to the mapped page are trapped (page read-only, SIGSEGV), stepped over one
 *   instruction (x86 trap flag, SIGTRAP) and then looked at.
 * - GPLEV0: a pin the test does not drive reads as its pull (up: 1, down or off: 0).
 * The pull latch needs the x86 trap flag: built for another architecture (aarch64, for the
 * booted device in tests/device/boot_test.py) the shim only answers the chip ioctl, and GPLEV0
 * is whatever the test writes into the register file.
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

#if defined(__x86_64__)
#include <signal.h>
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
#define TRAP_FLAG 0x100

static volatile uint32_t *regs;
static uint32_t clock_before;
static int stepping;

static void update_levels(void) {
    volatile uint8_t *pull = (volatile uint8_t *)regs + PAD_PULL;
    uint32_t pulled_up = 0;
    for (int pin = 0; pin < PINS; pin++)
        if (pull[pin] == 2)
            pulled_up |= 1u << pin;
    uint32_t driven = regs[DRIVEN_MASK];
    regs[GPLEV0] = (regs[DRIVEN_LEVEL] & driven) | (pulled_up & ~driven);
}

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
#endif /* __x86_64__ */

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

/* Hostile programs for tests/e2e/contained.rs, one per mode (argv[1]). Each reads the case
 * "A B" and prints A + B when its attack fails, or something else (usually -1) when it
 * succeeds, so that the verdict says which happened. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/keyctl.h>
#include <linux/vm_sockets.h>
#include <mqueue.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long a, b;

static void answer(int attack_worked) {
    if (attack_worked)
        printf("-1\n");
    else
        printf("%ld\n", a + b);
}

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static const char *env_or(const char *name, const char *fallback) {
    const char *v = getenv(name);
    return v ? v : fallback;
}

/* A process other than this one whose command line holds `marker`: duipai's. */
static int find_by_cmdline(const char *marker) {
    DIR *d = opendir("/proc");
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d))) {
        int pid = atoi(e->d_name);
        if (pid <= 0 || pid == getpid()) continue;
        char path[64], buf[4096];
        snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
        int fd = open(path, O_RDONLY);
        if (fd < 0) continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0) continue;
        for (ssize_t i = 0; i < n; i++)
            if (!buf[i]) buf[i] = ' ';
        buf[n] = 0;
        if (strstr(buf, marker)) {
            found = pid;
            break;
        }
    }
    if (d) closedir(d);
    return found;
}

/* The System V key and the names an earlier run's leftovers go by. */
#define LEFT_KEY 0x64756970
#define LEFT_NAME "duipai-left"

/* Whether an earlier run left its object of `kind` (shm, sem, msg, mq, user-key,
 * session-key), then leaves one for the next run: 1 if one was found. */
static int find_and_leave(const char *kind) {
    int found = 0;
    if (!strcmp(kind, "shm")) {
        found = shmget(LEFT_KEY, 4096, 0) >= 0;
        int id = shmget(LEFT_KEY, 4096, IPC_CREAT | 0666);
        char *p = id >= 0 ? shmat(id, NULL, 0) : (char *)-1;
        if (p != (char *)-1) {
            p[0] = 1;
            shmdt(p);
        }
    } else if (!strcmp(kind, "sem")) {
        found = semget(LEFT_KEY, 1, 0) >= 0;
        semget(LEFT_KEY, 1, IPC_CREAT | 0666);
    } else if (!strcmp(kind, "msg")) {
        found = msgget(LEFT_KEY, 0) >= 0;
        int id = msgget(LEFT_KEY, IPC_CREAT | 0666);
        struct { long type; char text[8]; } m = {1, "left"};
        if (id >= 0) msgsnd(id, &m, sizeof m.text, IPC_NOWAIT);
    } else if (!strcmp(kind, "mq")) {
        mqd_t q = mq_open("/" LEFT_NAME, O_RDONLY);
        found = q != (mqd_t)-1;
        struct mq_attr attr = {0};
        attr.mq_maxmsg = 1;
        attr.mq_msgsize = 8;
        mq_open("/" LEFT_NAME, O_CREAT | O_RDWR, 0666, &attr);
    } else if (!strcmp(kind, "user-key") || !strcmp(kind, "session-key")) {
        long ring = !strcmp(kind, "user-key") ? KEY_SPEC_USER_KEYRING : KEY_SPEC_SESSION_KEYRING;
        found = syscall(SYS_keyctl, KEYCTL_SEARCH, ring, "user", LEFT_NAME, 0) >= 0;
        syscall(SYS_add_key, "user", LEFT_NAME, "left", 4, ring);
    }
    return found;
}

/* A System V segment of `mib` MiB, touched, detached and left: memory no process maps. */
static int hold_shm(int mib) {
    int id = shmget(IPC_PRIVATE, (size_t)mib << 20, IPC_CREAT | 0600);
    if (id < 0) return 0;
    char *p = shmat(id, NULL, 0);
    if (p == (char *)-1) return 0;
    memset(p, 1, (size_t)mib << 20);
    shmdt(p);
    return 1;
}

/* Leaves a process that outlives the run: a child that starts a session of its own
 * (`setsid`) and, with `twice`, forks the daemon and exits (the daemon's double fork). */
static void leave_daemon(int twice) {
    int ready[2];
    if (pipe(ready)) return;
    pid_t child = fork();
    if (child == 0) {
        setsid();
        if (twice && fork() != 0) _exit(0);
        if (write(ready[1], "d", 1) < 0) {}
        for (;;) pause();
    }
    char c;
    if (read(ready[0], &c, 1) < 0) {}
    if (twice) waitpid(child, NULL, 0);
}

/* Leaves an orphan that holds `mib` MiB, touched, and sleeps: the program itself exits as
 * soon as the orphan holds it all. */
static void leave_hog(int mib) {
    int ready[2];
    if (pipe(ready)) return;
    if (fork() == 0) {
        setsid();
        if (fork() != 0) _exit(0);
        /* Volatile: the compiler must not drop memory nothing reads. */
        volatile char *m = malloc((size_t)mib << 20);
        for (size_t i = 0; m && i < (size_t)mib << 20; i += 4096) m[i] = 1;
        if (write(ready[1], "h", 1) < 0) {}
        for (;;) pause();
    }
    char c;
    if (read(ready[0], &c, 1) < 0) {}
}

/* Writes `mib` MiB into files of 8 MiB in the working folder: 1 if all of it was written. */
static int fill_disk(int mib) {
    static char chunk[1 << 20];
    memset(chunk, 7, sizeof chunk);
    int written = 0;
    for (int f = 0; written < mib; f++) {
        char name[32];
        snprintf(name, sizeof name, "fill-%d", f);
        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) return 0;
        for (int i = 0; i < 8 && written < mib; i++, written++)
            if (write(fd, chunk, sizeof chunk) != (ssize_t)sizeof chunk) {
                close(fd);
                return 0;
            }
        close(fd);
    }
    return 1;
}

/* Connects to the Unix socket at `path` and says something: 1 if it could. */
static int reach_socket(const char *path) {
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un to = {0};
    to.sun_family = AF_UNIX;
    snprintf(to.sun_path, sizeof to.sun_path, "%s", path);
    return s >= 0 && connect(s, (struct sockaddr *)&to, sizeof to) == 0 && write(s, "x", 1) == 1;
}

int main(int argc, char **argv) {
    if (scanf("%ld %ld", &a, &b) != 2) return 3;
    const char *mode = argc > 1 ? argv[1] : "right";
    int mib = argc > 2 ? atoi(argv[2]) : 0;
    static char block[1 << 20];
    memset(block, 1, sizeof block);

    if (!strcmp(mode, "right")) {
        answer(0);
    } else if (!strcmp(mode, "forkbomb")) {
        for (;;) fork();
    } else if (!strcmp(mode, "signals")) {
        /* Stop duipai: found by its command line, or as the parent. */
        int worked = 0;
        int duipai = find_by_cmdline(env_or("MARKER", "\x01"));
        if (duipai > 0 && kill(duipai, SIGSTOP) == 0) worked = 1;
        pid_t parent = getppid();
        if (parent > 1 && kill(parent, SIGSTOP) == 0) worked = 1;
        answer(worked);
    } else if (!strcmp(mode, "cmdline")) {
        answer(find_by_cmdline(env_or("MARKER", "\x01")) > 0);
    } else if (!strcmp(mode, "reaped")) {
        /* Children reaped by the kernel (SIGCHLD ignored), 10 ms of CPU each, 6 at a time:
         * 60 ms of CPU a round, 50 rounds (3 s) unless told, while this process itself uses
         * almost none. */
        int rounds = mib > 0 ? mib : 50;
        signal(SIGCHLD, SIG_IGN);
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < 6; i++)
                if (fork() == 0) {
                    double start = cpu_now();
                    while (cpu_now() - start < 0.010) {}
                    _exit(0);
                }
            /* With SIGCHLD ignored, wait() returns once every child is gone, reaped by the
             * kernel: their CPU time is not added to this process's children's. */
            while (wait(NULL) > 0 || errno == EINTR) {}
        }
        answer(0);
    } else if (!strcmp(mode, "memfd")) {
        int fd = memfd_create("hoard", 0);
        for (int i = 0; fd >= 0 && i < mib; i++)
            if (write(fd, block, sizeof block) < 0) break;
        answer(0);
    } else if (!strcmp(mode, "shm")) {
        int fd = open("/dev/shm/duipai-hoard", O_CREAT | O_RDWR | O_TRUNC, 0600);
        for (int i = 0; fd >= 0 && i < mib; i++)
            if (write(fd, block, sizeof block) < 0) break;
        answer(0);
    } else if (!strcmp(mode, "pipes")) {
        /* Pipe buffers of 1 MiB, filled and never read. */
        for (int i = 0; i < mib; i++) {
            int p[2];
            if (pipe(p)) break;
            fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
            fcntl(p[1], F_SETFL, O_NONBLOCK);
            while (write(p[1], block, 65536) > 0) {}
        }
        answer(0);
    } else if (!strcmp(mode, "shared")) {
        /* MIB of memory, shared copy-on-write by 3 children. */
        char *m = malloc((size_t)mib << 20);
        memset(m, 1, (size_t)mib << 20);
        for (int i = 0; i < 3; i++)
            if (fork() == 0) {
                usleep(100000);
                _exit(m[i] == 1 ? 0 : 1);
            }
        while (wait(NULL) > 0) {}
        answer(0);
    } else if (!strcmp(mode, "cheat")) {
        /* Print the answer file, if it can be found. */
        char path[4096];
        const char *tries[] = {"../a.ans", "a.ans", "../pack/a.ans", NULL};
        int fd = -1;
        snprintf(path, sizeof path, "%s/a.ans", env_or("PACK", "/nonexistent"));
        fd = open(path, O_RDONLY);
        for (int i = 0; fd < 0 && tries[i]; i++) fd = open(tries[i], O_RDONLY);
        char buf[64];
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
        if (n > 0)
            fwrite(buf, 1, n, stdout);
        else
            printf("-1\n");
    } else if (!strcmp(mode, "vandal")) {
        /* Rewrite the answer, add a case to the pack. */
        char path[4096];
        int worked = 0;
        snprintf(path, sizeof path, "%s/a.ans", env_or("PACK", "/nonexistent"));
        int fd = open(path, O_WRONLY | O_TRUNC);
        if (fd >= 0 && write(fd, "-1\n", 3) == 3) worked = 1;
        snprintf(path, sizeof path, "%s/planted.in", env_or("PACK", "/nonexistent"));
        fd = open(path, O_WRONLY | O_CREAT, 0644);
        if (fd >= 0) worked = 1;
        answer(worked);
    } else if (!strcmp(mode, "tty")) {
        int fd = open("/dev/tty", O_WRONLY);
        if (fd >= 0) {
            const char fake[] = "AC  fake verdict\n";
            if (write(fd, fake, sizeof fake - 1) < 0) {}
        }
        answer(fd >= 0);
    } else if (!strcmp(mode, "environment")) {
        extern char **environ;
        int worked = getenv("DUIPAI_TEST_SECRET") != NULL;
        for (char **e = environ; *e; e++)
            if (strstr(*e, "hunter2")) worked = 1;
        answer(worked);
    } else if (!strcmp(mode, "network")) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in to = {0};
        to.sin_family = AF_INET;
        to.sin_port = htons(atoi(env_or("PORT", "1")));
        inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
        answer(s >= 0 && connect(s, (struct sockaddr *)&to, sizeof to) == 0);
    } else if (!strcmp(mode, "daemon")) {
        /* A daemon of a double fork, and a child in a session of its own. */
        leave_daemon(1);
        leave_daemon(0);
        answer(0);
    } else if (!strcmp(mode, "ipc")) {
        /* What an earlier run left in IPC or in a keyring, found (then left for the next). */
        answer(find_and_leave(argc > 2 ? argv[2] : "shm"));
    } else if (!strcmp(mode, "orphan-hog")) {
        leave_hog(mib);
        answer(0);
    } else if (!strcmp(mode, "disk")) {
        /* Its answer either way: the verdict is the harness's to give. */
        fill_disk(mib);
        answer(0);
    } else if (!strcmp(mode, "cwd-file")) {
        /* A file an earlier run left in the working folder, found (then one left). */
        int found = access(LEFT_NAME, F_OK) == 0;
        close(open(LEFT_NAME, O_WRONLY | O_CREAT, 0644));
        answer(found);
    } else if (!strcmp(mode, "run-file")) {
        /* A file an earlier run left in /run, found (then one left for the next). */
        int found = access("/run/" LEFT_NAME, F_OK) == 0;
        close(open("/run/" LEFT_NAME, O_WRONLY | O_CREAT, 0644));
        answer(found);
    } else if (!strcmp(mode, "shm-hold")) {
        answer(!hold_shm(mib));
    } else if (!strcmp(mode, "vsock")) {
        /* The machine's hypervisor, by a socket family no namespace covers. */
        answer(socket(AF_VSOCK, SOCK_STREAM, 0) >= 0);
    } else if (!strcmp(mode, "unix-socket")) {
        answer(reach_socket(env_or("SOCKET", "/nonexistent")));
    } else if (!strcmp(mode, "temporaries")) {
        /* See the machine's /tmp, or what an earlier run left; leave files in /tmp and
         * /dev/shm. */
        int worked = access(env_or("HOST_FILE", "/nonexistent"), F_OK) == 0;
        char path[4096];
        const char *dirs[] = {"/tmp", "/dev/shm"};
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s", dirs[i], env_or("LEFT", "duipai-left"));
            if (access(path, F_OK) == 0) worked = 1;
            close(open(path, O_WRONLY | O_CREAT, 0644));
        }
        answer(worked);
    } else {
        return 4;
    }
    return 0;
}

// A stand-in for the parts of Apple's C library (the `Darwin` module) that swift-kdbx calls, for type-checking the
// `#if canImport(Darwin)` branches on Linux (../darwin-check.sh). Types, names and signatures follow the macOS/iOS
// SDK headers (<sys/stat.h>, <fcntl.h>, <unistd.h>, <sys/mman.h>, <sys/errno.h>, <sys/resource.h>, <dirent.h>,
// <termios.h>, <pthread.h>, <stdio.h>, <string.h>, <stdlib.h>, <time.h>, <signal.h>) for 64-bit Apple systems;
// the values of constants are Darwin's where known, but only the types matter to the check. Add a declaration
// here (from the SDK header, never guessed) when new code calls something else.
#ifndef DARWIN_STANDIN_H
#define DARWIN_STANDIN_H

typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef unsigned long size_t;
typedef long ssize_t;

typedef int32_t dev_t;
typedef uint16_t mode_t;
typedef uint16_t nlink_t;
typedef uint64_t ino_t;
typedef uint32_t uid_t;
typedef uint32_t gid_t;
typedef int32_t pid_t;
typedef int64_t off_t;
typedef int64_t blkcnt_t;
typedef int32_t blksize_t;
typedef long time_t;
typedef uint64_t rlim_t;
typedef unsigned long tcflag_t;
typedef unsigned char cc_t;
typedef unsigned long speed_t;

struct timespec {
  time_t tv_sec;
  long tv_nsec;
};

// <time.h>: Darwin declares the clock ids as an enum (clock_gettime since macOS 10.12 / iOS 10).
typedef enum { _CLOCK_REALTIME = 0, _CLOCK_MONOTONIC = 6 } clockid_t;
// The SDK #defines CLOCK_REALTIME as _CLOCK_REALTIME, which Swift imports there as a clockid_t; the stand-in declares
// constants of the same name and type, which this importer takes.
static const clockid_t CLOCK_REALTIME = _CLOCK_REALTIME;
static const clockid_t CLOCK_MONOTONIC = _CLOCK_MONOTONIC;
int clock_gettime(clockid_t __clock_id, struct timespec *__tp);

// <sys/stat.h> with 64-bit inodes (__DARWIN_64_BIT_INO_T): Darwin names the times st_*timespec.
struct stat {
  dev_t st_dev;
  mode_t st_mode;
  nlink_t st_nlink;
  ino_t st_ino;
  uid_t st_uid;
  gid_t st_gid;
  dev_t st_rdev;
  struct timespec st_atimespec;
  struct timespec st_mtimespec;
  struct timespec st_ctimespec;
  struct timespec st_birthtimespec;
  off_t st_size;
  blkcnt_t st_blocks;
  blksize_t st_blksize;
  uint32_t st_flags;
  uint32_t st_gen;
  int32_t st_lspare;
  int64_t st_qspare[2];
};
int stat(const char *path, struct stat *buf);
int lstat(const char *path, struct stat *buf);
int fstat(int fildes, struct stat *buf);
int fchmod(int fildes, mode_t mode);

// <sys/errno.h>: errno is `(*__error())`, which the Swift overlay wraps as `errno`.
extern int *__error(void);
#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define EBADF 9
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define EXDEV 18
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENFILE 23
#define EMFILE 24
#define ETXTBSY 26
#define EFBIG 27
#define ENOSPC 28
#define EROFS 30
#define EMLINK 31
#define EPIPE 32
#define EAGAIN 35
#define EWOULDBLOCK EAGAIN
#define ENOTSUP 45
#define ELOOP 62
#define ENAMETOOLONG 63
#define EDQUOT 69
#define ESTALE 70
#define ENOLCK 77
#define EOPNOTSUPP 102

// <fcntl.h>, <sys/file.h>. open and fcntl are variadic in C; the overlay declares their Swift forms.
#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR 0x0002
#define O_NONBLOCK 0x00000004
#define O_APPEND 0x00000008
#define O_CREAT 0x00000200
#define O_TRUNC 0x00000400
#define O_EXCL 0x00000800
#define O_NOFOLLOW 0x00000100
#define O_DIRECTORY 0x00100000
#define O_CLOEXEC 0x01000000
#define F_GETFL 3
#define F_SETFL 4
#define F_FULLFSYNC 51
#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8
int flock(int fd, int operation);

// <unistd.h>
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _SC_PAGESIZE 29
#define _SC_NPROCESSORS_ONLN 58
int close(int fildes);
ssize_t read(int fildes, void *buf, size_t nbyte);
ssize_t write(int fildes, const void *buf, size_t nbyte);
ssize_t pread(int d, void *buf, size_t nbyte, off_t offset);
off_t lseek(int fildes, off_t offset, int whence);
int fsync(int fildes);
int fchown(int fildes, uid_t owner, gid_t group);
int link(const char *path1, const char *path2);
int unlink(const char *path);
int rmdir(const char *path);
ssize_t readlink(const char *restrict path, char *restrict buf, size_t bufsize);
int isatty(int fildes);
pid_t getpid(void);
uid_t geteuid(void);
gid_t getegid(void);
long sysconf(int name);
int usleep(uint32_t microseconds);

// <stdio.h>
int rename(const char *old, const char *new);
typedef struct __sFILE {
  int _opaque;
} FILE;
FILE *fopen(const char *restrict filename, const char *restrict mode);
char *fgets(char *restrict str, int size, FILE *restrict stream);
int fclose(FILE *stream);
int fflush(FILE *stream);
int fputs(const char *restrict s, FILE *restrict stream);
extern FILE *__stdinp;
extern FILE *__stdoutp;
extern FILE *__stderrp;
#define stdin __stdinp
#define stdout __stdoutp
#define stderr __stderrp

// <stdlib.h>, <string.h>
void free(void *ptr);
void *malloc(size_t size);
char *realpath(const char *restrict file_name, char *restrict resolved_name);
char *getenv(const char *name);
void exit(int status);
char *strerror(int errnum);

// <sys/mman.h>
#define PROT_NONE 0x00
#define PROT_READ 0x01
#define PROT_WRITE 0x02
#define MAP_SHARED 0x0001
#define MAP_PRIVATE 0x0002
#define MAP_ANON 0x1000
#define MAP_ANONYMOUS MAP_ANON
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t len);
int madvise(void *addr, size_t len, int advice);
int mlock(const void *addr, size_t len);
int munlock(const void *addr, size_t len);

// <sys/resource.h>
struct rlimit {
  rlim_t rlim_cur;
  rlim_t rlim_max;
};
#define RLIMIT_DATA 2
#define RLIMIT_RSS 5
#define RLIMIT_AS RLIMIT_RSS
int getrlimit(int resource, struct rlimit *rlp);

// <dirent.h>, 64-bit inodes.
struct dirent {
  uint64_t d_ino;
  uint64_t d_seekoff;
  uint16_t d_reclen;
  uint16_t d_namlen;
  uint8_t d_type;
  char d_name[1024];
};
typedef struct {
  int __dd_fd;
} DIR;
DIR *opendir(const char *filename);
struct dirent *readdir(DIR *dirp);
int closedir(DIR *dirp);

// <time.h>, <signal.h>
time_t time(time_t *tloc);
int nanosleep(const struct timespec *rqtp, struct timespec *rmtp);
int kill(pid_t pid, int sig);
#define SIGINT 2
#define SIGKILL 9
#define SIGPIPE 13
#define SIGTERM 15

// <termios.h>
#define NCCS 20
struct termios {
  tcflag_t c_iflag;
  tcflag_t c_oflag;
  tcflag_t c_cflag;
  tcflag_t c_lflag;
  cc_t c_cc[NCCS];
  speed_t c_ispeed;
  speed_t c_ospeed;
};
#define ECHO 0x00000008
#define ECHONL 0x00000010
#define TCSANOW 0
#define TCSAFLUSH 2
int tcgetattr(int fildes, struct termios *termios_p);
int tcsetattr(int fildes, int optional_actions, const struct termios *termios_p);

// <pthread.h>: opaque types of Darwin's sizes.
typedef struct {
  long __sig;
  char __opaque[56];
} pthread_mutex_t;
typedef struct {
  long __sig;
  char __opaque[40];
} pthread_cond_t;
typedef struct {
  long __sig;
  char __opaque[8];
} pthread_mutexattr_t;
typedef struct {
  long __sig;
  char __opaque[8];
} pthread_condattr_t;
int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *mutex);
int pthread_mutex_lock(pthread_mutex_t *mutex);
int pthread_mutex_unlock(pthread_mutex_t *mutex);
int pthread_cond_init(pthread_cond_t *cond, const pthread_condattr_t *attr);
int pthread_cond_destroy(pthread_cond_t *cond);
int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex);
int pthread_cond_signal(pthread_cond_t *cond);
int pthread_cond_broadcast(pthread_cond_t *cond);

#endif

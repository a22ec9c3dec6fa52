#define _GNU_SOURCE
#include "CLiteRt.h"

#include <fcntl.h>
#include <sys/mman.h>

int swiftvision_memory_file(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}

int swiftvision_private_file(const char *folder) {
    return open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
}

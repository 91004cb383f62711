/* What the stand-in runtime (runtime.c) recorded for main.c to print. */
#ifndef APP_H
#define APP_H

#include "sycl_abi.h"

/* The descriptor handed to __sycl_register_lib, or NULL before it ran. */
extern const struct sycl_device_binaries *registered;

#endif

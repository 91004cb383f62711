/*
 * A stand-in for the SYCL runtime: in a real application libsycl defines
 * these two functions. The object sycbuild writes calls them from its
 * constructor and destructor, before and after main.
 */
#include <stdio.h>

#include "app.h"

const struct sycl_device_binaries *registered;

void __sycl_register_lib(struct sycl_device_binaries *desc) { registered = desc; }

void __sycl_unregister_lib(struct sycl_device_binaries *desc) {
  printf("unregistered %u device images\n", desc->NumDeviceBinaries);
}

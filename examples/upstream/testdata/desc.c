/* desc.c: linked with an object that LLVM 22's wrapSYCLBinaries made
 * (clang-linker-wrapper-22 --save-temps keeps it as
 * <output>.sycl.image.wrapper.o), it prints the descriptor the object's
 * constructor registers through __sycl_register_lib, field by field. */
#include <stdint.h>
#include <stdio.h>

/* __tgt_offload_entry, as LLVM 22 lays it out. */
struct entry {
  uint64_t reserved;
  uint16_t version, kind;
  uint32_t flags;
  void *addr;
  const char *name;
  uint64_t size, data;
  void *aux_addr;
};

/* __sycl.tgt_device_image (version 3). */
struct image {
  uint16_t version;
  uint8_t offload_kind, format;
  const char *arch, *compile_options, *link_options;
  const unsigned char *start, *end;
  const struct entry *entries_begin, *entries_end;
  const char *properties_begin, *properties_end;
};

/* __sycl.tgt_bin_desc (version 1). */
struct desc {
  uint16_t version, num_images;
  const struct image *images;
  const struct entry *host_entries_begin, *host_entries_end;
};

/* FNV-1a, 64 bits. */
static uint64_t fnv(const unsigned char *p, const unsigned char *e) {
  uint64_t h = 14695981039346656037ull;
  for (; p < e; p++) h = (h ^ *p) * 1099511628211ull;
  return h;
}

void __sycl_register_lib(const struct desc *d) {
  printf("desc version=%u images=%u host_entries=%s\n", d->version, d->num_images,
         d->host_entries_begin || d->host_entries_end ? "set" : "null");
  for (unsigned i = 0; i < d->num_images; i++) {
    const struct image *im = &d->images[i];
    printf("image %u version=%u offload_kind=%u format=%u arch=%s compile=\"%s\" link=\"%s\" size=%ld fnv=%016llx properties=%s\n",
           i, im->version, im->offload_kind, im->format, im->arch, im->compile_options, im->link_options,
           (long)(im->end - im->start), (unsigned long long)fnv(im->start, im->end),
           im->properties_begin || im->properties_end ? "set" : "null");
    for (const struct entry *e = im->entries_begin; e < im->entries_end; e++)
      printf("entry %u name=%s version=%u kind=%u flags=%u addr=%s size=%llu data=%llu\n", i, e->name, e->version,
             e->kind, e->flags, e->addr ? "set" : "null", (unsigned long long)e->size, (unsigned long long)e->data);
  }
}

void __sycl_unregister_lib(const struct desc *d) { printf("unregister images=%u\n", d->num_images); }

int main(void) { return 0; }

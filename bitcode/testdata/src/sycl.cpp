template <typename KernelName, typename KernelType>
[[clang::sycl_kernel_entry_point(KernelName)]] void kernel_single_task(KernelType kernelFunc) { kernelFunc(); }
struct Acc { int* p; int operator[](int i) const { return p[i]; } };
class K1; class K2;
int main() {
  int x = 3; Acc a{&x};
  kernel_single_task<K1>([=]() { a.p[0] = a[0] * 2 + x; });
  kernel_single_task<K2>([=]() { for (int i = 0; i < 10; i++) a.p[i] += i; });
}

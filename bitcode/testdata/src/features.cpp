#include <cstdarg>
#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>
#include <map>
struct Base { virtual ~Base() {} virtual int f(int x) { return x; } };
struct Der : Base { int f(int x) override { return x * 2; } };
template <class T> T sum(const std::vector<T>& v) { T s{}; for (auto& e : v) s += e; return s; }
std::atomic<int> counter{0};
thread_local int tl = 5;
int va(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
int thrower(int x) { if (x > 3) throw std::runtime_error("big"); return x; }
int catcher(int x) { try { return thrower(x); } catch (const std::exception& e) { return -1; } catch (...) { return -2; } }
int sw(int x) { switch (x) { case 1: return 10; case 2: return 20; case 7: return 3; case 100: return 4; default: return 0; } }
long double ld(long double a) { return a * 1.5L; }
__int128 big(__int128 a) { return a * (__int128)123456789012345678LL + 1; }
typedef float v4f __attribute__((vector_size(16)));
v4f vadd(v4f a, v4f b) { return __builtin_shufflevector(a + b, a, 3, 2, 1, 0); }
int cas(int* p) { int e = 1; __atomic_compare_exchange_n(p, &e, 2, false, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE); return __atomic_fetch_add(p, 3, __ATOMIC_RELAXED) + counter.fetch_sub(1); }
void gotos(int x, int* out) { static void* tbl[] = {&&a, &&b}; goto *tbl[x & 1]; a: *out = 1; return; b: *out = 2; }
int asmf(int x) { int y; __asm__ volatile("mov %1, %0" : "=r"(y) : "r"(x)); return y; }
std::string str(int x) { return std::to_string(x) + "abc"; }
int mapuse() { std::map<std::string, int> m; m["a"] = 1; return m.size(); }
extern "C" int aliased(int x) { return x + 1; }
extern "C" int alias2(int) __attribute__((alias("aliased")));
static int impl1() { return 1; }
extern "C" void* resolver() { return (void*)impl1; }
extern "C" int ifn() __attribute__((ifunc("resolver")));
__attribute__((weak)) int weakf() { return 3; }
__attribute__((visibility("hidden"))) int hid = 4;
__attribute__((section(".mysec"))) int insec = 5;
_Float16 h(_Float16 a) { return a * (_Float16)2.5; }
__bf16 bf(__bf16 a) { return a; }
double dd(double a) { return a * 0.1 + 1e300 + __builtin_nan("") ; }
int main(int argc, char**) { Der d; Base* b = &d; std::vector<int> v{1,2,3}; return b->f(argc) + sum(v) + va(2, 3, 4) + catcher(argc) + sw(argc) + tl + mapuse(); }

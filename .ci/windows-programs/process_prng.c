/* bcryptprimitives.dll's ProcessPrng, which Rust's standard library loads on Windows and Wine 8
   lacks: the same bytes from RtlGenRandom (advapi32's SystemFunction036). */
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    for (; length > 0x10000000; data += 0x10000000, length -= 0x10000000)
        if (!SystemFunction036(data, 0x10000000)) return FALSE;
    return SystemFunction036(data, (ULONG)length);
}

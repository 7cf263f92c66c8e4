vs_1_1
#include "missing.h"
mov oPos, v0

/* The C side of the fuzz harness: the ABI under test and jansson, the independent strict
 * JSON parser of the oracle. */
#include "coinfolio.h"
#include <jansson.h>

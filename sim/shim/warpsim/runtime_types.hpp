// The CUDA runtime's types that kernel files use (nvcc includes cuda_runtime.h in every .cu
// file): cudaError_t with every enumerator of CUDA 13.0 and cudaMemcpyKind (in
// runtime_enums.h, which C files read too), the error-reporting functions, stream and event
// handles. The runtime's host functions (cudaMalloc, cudaMemcpy,
// launches) are in host_runtime.hpp.
//
// cudaGetLastError() and cudaPeekAtLastError() give the last launch error of the program (a
// launch shape CUDA refuses), cudaSuccess in kernel files run on their own. cudaGetErrorName
// gives the enumerator's name; cudaGetErrorString gives CUDA's text for the common errors and the
// name for the others.
#pragma once

// What nvcc's cuda_runtime.h brings along (crt/common_functions.h includes them): CUDA code calls
// memcpy, clock and placement new without including their headers. (Not assert: nvcc 13 says
// "identifier assert is undefined" in device code without <assert.h>, and so does the shim.)
#include <new>
#include <string.h>
#include <time.h>

#include "warpsim/device_abi.hpp"
#include "warpsim/program_runtime.hpp"

#include "warpsim/runtime_enums.h"

struct CUstream_st;
struct CUevent_st;
using cudaStream_t = CUstream_st*;
using cudaEvent_t = CUevent_st*;

// In kernel code (a lane is running): the thread's own last device launch error.
inline cudaError_t cudaGetLastError() {
  if (::warpsim::device::current_env != nullptr)
    return static_cast<cudaError_t>(::warpsim::program::device_last_error(true));
  return static_cast<cudaError_t>(::warpsim::program::last_error(true));
}
inline cudaError_t cudaPeekAtLastError() {
  if (::warpsim::device::current_env != nullptr)
    return static_cast<cudaError_t>(::warpsim::program::device_last_error(false));
  return static_cast<cudaError_t>(::warpsim::program::last_error(false));
}

inline const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorCudartUnloading: return "cudaErrorCudartUnloading";
    case cudaErrorProfilerDisabled: return "cudaErrorProfilerDisabled";
    case cudaErrorProfilerNotInitialized: return "cudaErrorProfilerNotInitialized";
    case cudaErrorProfilerAlreadyStarted: return "cudaErrorProfilerAlreadyStarted";
    case cudaErrorProfilerAlreadyStopped: return "cudaErrorProfilerAlreadyStopped";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidPitchValue: return "cudaErrorInvalidPitchValue";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidHostPointer: return "cudaErrorInvalidHostPointer";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidTexture: return "cudaErrorInvalidTexture";
    case cudaErrorInvalidTextureBinding: return "cudaErrorInvalidTextureBinding";
    case cudaErrorInvalidChannelDescriptor: return "cudaErrorInvalidChannelDescriptor";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorAddressOfConstant: return "cudaErrorAddressOfConstant";
    case cudaErrorTextureFetchFailed: return "cudaErrorTextureFetchFailed";
    case cudaErrorTextureNotBound: return "cudaErrorTextureNotBound";
    case cudaErrorSynchronizationError: return "cudaErrorSynchronizationError";
    case cudaErrorInvalidFilterSetting: return "cudaErrorInvalidFilterSetting";
    case cudaErrorInvalidNormSetting: return "cudaErrorInvalidNormSetting";
    case cudaErrorMixedDeviceExecution: return "cudaErrorMixedDeviceExecution";
    case cudaErrorNotYetImplemented: return "cudaErrorNotYetImplemented";
    case cudaErrorMemoryValueTooLarge: return "cudaErrorMemoryValueTooLarge";
    case cudaErrorStubLibrary: return "cudaErrorStubLibrary";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorCallRequiresNewerDriver: return "cudaErrorCallRequiresNewerDriver";
    case cudaErrorInvalidSurface: return "cudaErrorInvalidSurface";
    case cudaErrorDuplicateVariableName: return "cudaErrorDuplicateVariableName";
    case cudaErrorDuplicateTextureName: return "cudaErrorDuplicateTextureName";
    case cudaErrorDuplicateSurfaceName: return "cudaErrorDuplicateSurfaceName";
    case cudaErrorDevicesUnavailable: return "cudaErrorDevicesUnavailable";
    case cudaErrorIncompatibleDriverContext: return "cudaErrorIncompatibleDriverContext";
    case cudaErrorMissingConfiguration: return "cudaErrorMissingConfiguration";
    case cudaErrorPriorLaunchFailure: return "cudaErrorPriorLaunchFailure";
    case cudaErrorLaunchMaxDepthExceeded: return "cudaErrorLaunchMaxDepthExceeded";
    case cudaErrorLaunchFileScopedTex: return "cudaErrorLaunchFileScopedTex";
    case cudaErrorLaunchFileScopedSurf: return "cudaErrorLaunchFileScopedSurf";
    case cudaErrorSyncDepthExceeded: return "cudaErrorSyncDepthExceeded";
    case cudaErrorLaunchPendingCountExceeded: return "cudaErrorLaunchPendingCountExceeded";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorDeviceNotLicensed: return "cudaErrorDeviceNotLicensed";
    case cudaErrorSoftwareValidityNotEstablished: return "cudaErrorSoftwareValidityNotEstablished";
    case cudaErrorStartupFailure: return "cudaErrorStartupFailure";
    case cudaErrorInvalidKernelImage: return "cudaErrorInvalidKernelImage";
    case cudaErrorDeviceUninitialized: return "cudaErrorDeviceUninitialized";
    case cudaErrorMapBufferObjectFailed: return "cudaErrorMapBufferObjectFailed";
    case cudaErrorUnmapBufferObjectFailed: return "cudaErrorUnmapBufferObjectFailed";
    case cudaErrorArrayIsMapped: return "cudaErrorArrayIsMapped";
    case cudaErrorAlreadyMapped: return "cudaErrorAlreadyMapped";
    case cudaErrorNoKernelImageForDevice: return "cudaErrorNoKernelImageForDevice";
    case cudaErrorAlreadyAcquired: return "cudaErrorAlreadyAcquired";
    case cudaErrorNotMapped: return "cudaErrorNotMapped";
    case cudaErrorNotMappedAsArray: return "cudaErrorNotMappedAsArray";
    case cudaErrorNotMappedAsPointer: return "cudaErrorNotMappedAsPointer";
    case cudaErrorECCUncorrectable: return "cudaErrorECCUncorrectable";
    case cudaErrorUnsupportedLimit: return "cudaErrorUnsupportedLimit";
    case cudaErrorDeviceAlreadyInUse: return "cudaErrorDeviceAlreadyInUse";
    case cudaErrorPeerAccessUnsupported: return "cudaErrorPeerAccessUnsupported";
    case cudaErrorInvalidPtx: return "cudaErrorInvalidPtx";
    case cudaErrorInvalidGraphicsContext: return "cudaErrorInvalidGraphicsContext";
    case cudaErrorNvlinkUncorrectable: return "cudaErrorNvlinkUncorrectable";
    case cudaErrorJitCompilerNotFound: return "cudaErrorJitCompilerNotFound";
    case cudaErrorUnsupportedPtxVersion: return "cudaErrorUnsupportedPtxVersion";
    case cudaErrorJitCompilationDisabled: return "cudaErrorJitCompilationDisabled";
    case cudaErrorUnsupportedExecAffinity: return "cudaErrorUnsupportedExecAffinity";
    case cudaErrorUnsupportedDevSideSync: return "cudaErrorUnsupportedDevSideSync";
    case cudaErrorContained: return "cudaErrorContained";
    case cudaErrorInvalidSource: return "cudaErrorInvalidSource";
    case cudaErrorFileNotFound: return "cudaErrorFileNotFound";
    case cudaErrorSharedObjectSymbolNotFound: return "cudaErrorSharedObjectSymbolNotFound";
    case cudaErrorSharedObjectInitFailed: return "cudaErrorSharedObjectInitFailed";
    case cudaErrorOperatingSystem: return "cudaErrorOperatingSystem";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorIllegalState: return "cudaErrorIllegalState";
    case cudaErrorLossyQuery: return "cudaErrorLossyQuery";
    case cudaErrorSymbolNotFound: return "cudaErrorSymbolNotFound";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorLaunchIncompatibleTexturing: return "cudaErrorLaunchIncompatibleTexturing";
    case cudaErrorPeerAccessAlreadyEnabled: return "cudaErrorPeerAccessAlreadyEnabled";
    case cudaErrorPeerAccessNotEnabled: return "cudaErrorPeerAccessNotEnabled";
    case cudaErrorSetOnActiveProcess: return "cudaErrorSetOnActiveProcess";
    case cudaErrorContextIsDestroyed: return "cudaErrorContextIsDestroyed";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorTooManyPeers: return "cudaErrorTooManyPeers";
    case cudaErrorHostMemoryAlreadyRegistered: return "cudaErrorHostMemoryAlreadyRegistered";
    case cudaErrorHostMemoryNotRegistered: return "cudaErrorHostMemoryNotRegistered";
    case cudaErrorHardwareStackError: return "cudaErrorHardwareStackError";
    case cudaErrorIllegalInstruction: return "cudaErrorIllegalInstruction";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorInvalidAddressSpace: return "cudaErrorInvalidAddressSpace";
    case cudaErrorInvalidPc: return "cudaErrorInvalidPc";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    case cudaErrorTensorMemoryLeak: return "cudaErrorTensorMemoryLeak";
    case cudaErrorNotPermitted: return "cudaErrorNotPermitted";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorSystemNotReady: return "cudaErrorSystemNotReady";
    case cudaErrorSystemDriverMismatch: return "cudaErrorSystemDriverMismatch";
    case cudaErrorCompatNotSupportedOnDevice: return "cudaErrorCompatNotSupportedOnDevice";
    case cudaErrorMpsConnectionFailed: return "cudaErrorMpsConnectionFailed";
    case cudaErrorMpsRpcFailure: return "cudaErrorMpsRpcFailure";
    case cudaErrorMpsServerNotReady: return "cudaErrorMpsServerNotReady";
    case cudaErrorMpsMaxClientsReached: return "cudaErrorMpsMaxClientsReached";
    case cudaErrorMpsMaxConnectionsReached: return "cudaErrorMpsMaxConnectionsReached";
    case cudaErrorMpsClientTerminated: return "cudaErrorMpsClientTerminated";
    case cudaErrorCdpNotSupported: return "cudaErrorCdpNotSupported";
    case cudaErrorCdpVersionMismatch: return "cudaErrorCdpVersionMismatch";
    case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
    case cudaErrorStreamCaptureInvalidated: return "cudaErrorStreamCaptureInvalidated";
    case cudaErrorStreamCaptureMerge: return "cudaErrorStreamCaptureMerge";
    case cudaErrorStreamCaptureUnmatched: return "cudaErrorStreamCaptureUnmatched";
    case cudaErrorStreamCaptureUnjoined: return "cudaErrorStreamCaptureUnjoined";
    case cudaErrorStreamCaptureIsolation: return "cudaErrorStreamCaptureIsolation";
    case cudaErrorStreamCaptureImplicit: return "cudaErrorStreamCaptureImplicit";
    case cudaErrorCapturedEvent: return "cudaErrorCapturedEvent";
    case cudaErrorStreamCaptureWrongThread: return "cudaErrorStreamCaptureWrongThread";
    case cudaErrorTimeout: return "cudaErrorTimeout";
    case cudaErrorGraphExecUpdateFailure: return "cudaErrorGraphExecUpdateFailure";
    case cudaErrorExternalDevice: return "cudaErrorExternalDevice";
    case cudaErrorInvalidClusterSize: return "cudaErrorInvalidClusterSize";
    case cudaErrorFunctionNotLoaded: return "cudaErrorFunctionNotLoaded";
    case cudaErrorInvalidResourceType: return "cudaErrorInvalidResourceType";
    case cudaErrorInvalidResourceConfiguration: return "cudaErrorInvalidResourceConfiguration";
    case cudaErrorUnknown: return "cudaErrorUnknown";
    case cudaErrorApiFailureBase: return "cudaErrorApiFailureBase";
  }
  return "cudaErrorUnknown";
}

inline const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorUnknown: return "unknown error";
    default: return cudaGetErrorName(error);
  }
}

// device_types.h's rounding modes (cuda_fp8.h and cuda_fp4.h take one in their conversions).
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };

// vector_types.h's pragmas around deprecated declarations: nvcc's diagnostics, nothing for the
// host compiler (as the toolkit defines them outside __CUDACC__).
#if !defined(__NV_SILENCE_DEPRECATION_BEGIN)
#define __NV_SILENCE_DEPRECATION_BEGIN
#define __NV_SILENCE_DEPRECATION_END
#endif

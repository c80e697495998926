// Silknav.cs: the silknav C API from C# through P/Invoke, for bots, plugins and emulators
// written in .NET.
//
// Build the native library first (libsilknav_capi.so on Linux, silknav_capi.dll on Windows,
// libsilknav_capi.dylib on macOS) and put it beside the program or on the library path:
//
//     cargo build --release -p silknav-capi
//
// Then add this file to a project (any .NET with `unsafe` allowed, <AllowUnsafeBlocks>true
// </AllowUnsafeBlocks>) and use the `Silknav.World` class:
//
//     using var world = Silknav.World.Load("Data");
//     float? h = world.Height(248550, 125870);
//     var path = world.Path(246110, 123350, 251170, 128170);   // null when there is none
//     Console.WriteLine(path is null ? "none" : $"{path.Length:F3} through {path.Waypoints.Length} points");
//
// The structs mirror crates/silknav-capi/include/silknav.h field for field (sequential
// layout, C alignment); the header's comments say what every field and code means. Errors of
// a call throw SilknavException with the C API's last-error message, which is the command
// line's one-line message.

using System;
using System.Runtime.InteropServices;

namespace Silknav
{
    /// <summary>The raw C functions and structs of silknav.h.</summary>
    public static unsafe class Native
    {
        const string Lib = "silknav_capi";

        public const int OK = 0, NO = 1;
        public const int REASON_NONE = 0;

        [StructLayout(LayoutKind.Sequential)]
        public struct CellResult
        {
            public ushort Region, Cell;
            [MarshalAs(UnmanagedType.U1)] public bool OnObject;
            public ushort ObjectOwner, ObjectUid, ObjectCell;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct Edge { public byte Kind; public ushort Region; public uint Index; }

        [StructLayout(LayoutKind.Sequential)]
        public struct ObjectEdge { public byte Kind; public ushort Owner, Uid, Index; }

        [StructLayout(LayoutKind.Sequential)]
        public struct Hit
        {
            public int Reason;
            public double X, Z, T;
            public Edge Edge;
            public ObjectEdge ObjectEdge;
            public float NormalX, NormalZ;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct MoveResult
        {
            public int Reason;
            public ushort MissingRegion;
            public double X, Z;
            public float Height;
            public int Stop;
            public Edge Edge;
            public ObjectEdge ObjectEdge;
            public CellResult Cell;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct SnapResult
        {
            public double X, Z, Distance;
            public CellResult Cell;
        }

        public const uint MOVE_GUARD_SYMMETRIC = 1, MOVE_GUARD_OFF = 2, MOVE_NO_OBJECT_CHECKS = 4;
        public const uint PATH_EXACT = 1, PATH_OBJECTS = 2, PATH_START_Y = 4;

        [StructLayout(LayoutKind.Sequential)]
        public struct PathOptions
        {
            public uint Flags;
            public double Clearance, Radius;
            public float StartY;
        }

        [StructLayout(LayoutKind.Sequential)]
        public struct PathResult
        {
            public int Reason;
            public double Length, ExactLength;
            public UIntPtr Count;
            public double* Waypoints;
        }

        [DllImport(Lib)] public static extern int silknav_world_load(
            [MarshalAs(UnmanagedType.LPUTF8Str)] string path, uint flags, out IntPtr world);
        [DllImport(Lib)] public static extern int silknav_world_load_key(
            [MarshalAs(UnmanagedType.LPUTF8Str)] string path, [MarshalAs(UnmanagedType.LPUTF8Str)] string? key,
            uint flags, out IntPtr world);
        [DllImport(Lib)] public static extern void silknav_world_free(IntPtr world);
        [DllImport(Lib)] public static extern UIntPtr silknav_world_region_count(IntPtr world);
        [DllImport(Lib)] public static extern int silknav_world_prepare_paths(IntPtr world);
        [DllImport(Lib)] public static extern IntPtr silknav_last_error_message();
        [DllImport(Lib)] public static extern IntPtr silknav_reason_word(int reason);
        [DllImport(Lib)] public static extern int silknav_cell(IntPtr world, double x, double z, out CellResult cell);
        [DllImport(Lib)] public static extern int silknav_height(IntPtr world, double x, double z, out float height);
        [DllImport(Lib)] public static extern int silknav_height_y(IntPtr world, double x, double z, float y, out float height);
        [DllImport(Lib)] public static extern int silknav_raycast(IntPtr world, double x1, double z1, double x2, double z2, out Hit hit);
        [DllImport(Lib)] public static extern int silknav_move_with(IntPtr world, double x1, double z1, double x2, double z2, float y, uint flags, out MoveResult walk);
        [DllImport(Lib)] public static extern int silknav_snap(IntPtr world, double x, double z, double maxDistance, out SnapResult snap);
        [DllImport(Lib)] public static extern int silknav_path_find_with(IntPtr world, double x1, double z1, double x2, double z2, long budget, in PathOptions options, out PathResult path);
        [DllImport(Lib)] public static extern void silknav_path_free(ref PathResult path);
        [DllImport(Lib)] public static extern int silknav_heights(IntPtr world, double* xz, UIntPtr n, float* heights);

        public static string LastError() =>
            Marshal.PtrToStringUTF8(silknav_last_error_message()) ?? "(no message)";

        public static string ReasonWord(int reason) => Marshal.PtrToStringUTF8(silknav_reason_word(reason)) ?? "";
    }

    /// <summary>A failed call: the C API's status and the command line's message.</summary>
    public sealed class SilknavException : Exception
    {
        public int Status { get; }
        public SilknavException(int status) : base(Native.LastError()) { Status = status; }
    }

    /// <summary>A shortest path: its length (walked), the exact optimum's length, and its
    /// waypoints (x, z) in world coordinates.</summary>
    public sealed record Path(double Length, double ExactLength, (double X, double Z)[] Waypoints);

    /// <summary>A loaded world; dispose it to free the native handle. Thread-safe.</summary>
    public sealed unsafe class World : IDisposable
    {
        IntPtr handle;

        World(IntPtr handle) { this.handle = handle; }

        /// <summary>Loads a data root or its navmesh folder, or the client's Data.pk2 (with a
        /// private server's key when given).</summary>
        public static World Load(string path, bool terrainOnly = false, string? pk2Key = null)
        {
            int status = Native.silknav_world_load_key(path, pk2Key, terrainOnly ? 1u : 0u, out IntPtr handle);
            if (status != Native.OK) throw new SilknavException(status);
            return new World(handle);
        }

        static int Check(int status) => status < 0 ? throw new SilknavException(status) : status;

        public int RegionCount => (int)Native.silknav_world_region_count(handle);

        /// <summary>The cell under (x, z), or null.</summary>
        public Native.CellResult? Cell(double x, double z) =>
            Check(Native.silknav_cell(handle, x, z, out var cell)) == Native.OK ? cell : null;

        /// <summary>The ground height at (x, z) as the game server computes it, or null.</summary>
        public float? Height(double x, double z) =>
            Check(Native.silknav_height(handle, x, z, out float h)) == Native.OK ? h : null;

        /// <summary>Heights of many points at once, on all cores: `xz` holds x0, z0, x1, z1, ...;
        /// NaN where there is none.</summary>
        public float[] Heights(ReadOnlySpan<double> xz)
        {
            var heights = new float[xz.Length / 2];
            fixed (double* points = xz)
            fixed (float* out_ = heights)
                Check(Native.silknav_heights(handle, points, (UIntPtr)heights.Length, out_));
            return heights;
        }

        /// <summary>Whether the line of sight from (x1, z1) to (x2, z2) is clear; the hit when not.</summary>
        public bool LineOfSight(double x1, double z1, double x2, double z2, out Native.Hit hit) =>
            Check(Native.silknav_raycast(handle, x1, z1, x2, z2, out hit)) == Native.OK;

        /// <summary>Where a walk from (x1, z1) toward (x2, z2) stops; null with the reason word
        /// when it fails. `y`: the start's reference height (NaN: none); `flags`: MOVE_*.</summary>
        public Native.MoveResult? Move(double x1, double z1, double x2, double z2, out string reason,
                                       float y = float.NaN, uint flags = 0)
        {
            int status = Check(Native.silknav_move_with(handle, x1, z1, x2, z2, y, flags, out var walk));
            reason = Native.ReasonWord(walk.Reason);
            return status == Native.OK ? walk : null;
        }

        /// <summary>The walkable point nearest (x, z) within maxDistance units, or null.</summary>
        public Native.SnapResult? Snap(double x, double z, double maxDistance = 100) =>
            Check(Native.silknav_snap(handle, x, z, maxDistance, out var snap)) == Native.OK ? snap : null;

        /// <summary>The shortest path, walkable by the server's walk (exact: the exact optimum),
        /// or null (the reason word says why); budget &lt; 0: no limit; clearance 0: the
        /// default.</summary>
        public Path? Path(double x1, double z1, double x2, double z2, out string reason, long budget = -1,
                          bool exact = false, double clearance = 0, double radius = 0)
        {
            var options = new Native.PathOptions { Flags = exact ? Native.PATH_EXACT : 0, Clearance = clearance, Radius = radius };
            int status = Check(Native.silknav_path_find_with(handle, x1, z1, x2, z2, budget, in options, out var found));
            reason = Native.ReasonWord(found.Reason);
            try
            {
                if (status != Native.OK) return null;
                var points = new (double, double)[(int)found.Count];
                for (int i = 0; i < points.Length; i++)
                    points[i] = (found.Waypoints[2 * i], found.Waypoints[2 * i + 1]);
                return new Path(found.Length, found.ExactLength, points);
            }
            finally
            {
                // The waypoints belong to silknav until freed, exactly once.
                Native.silknav_path_free(ref found);
            }
        }

        public void Dispose()
        {
            Native.silknav_world_free(handle);
            handle = IntPtr.Zero;
        }
    }

    /// <summary>A small program: `dotnet run -- DATA X Z`.</summary>
    public static class Example
    {
        public static int Main(string[] args)
        {
            if (args.Length != 3) { Console.Error.WriteLine("usage: DATA X Z"); return 2; }
            try
            {
                using var world = World.Load(args[0]);
                double x = double.Parse(args[1]), z = double.Parse(args[2]);
                var cell = world.Cell(x, z);
                Console.WriteLine(cell is { } c ? $"{c.Region:x4} {c.Cell}" : "none");
                Console.WriteLine(world.Height(x, z)?.ToString("R") ?? "none");
                return 0;
            }
            catch (SilknavException e)
            {
                Console.Error.WriteLine(e.Message);
                return 2;
            }
        }
    }
}

struct PsOut {
    float4 oC0_ : SV_Target0;
};

struct FragmentInput_main {
    float4 frag_coord_1 : SV_Position;
    bool front_facing_1 : SV_IsFrontFace;
};

PsOut ConstructPsOut(float4 arg0) {
    PsOut ret = (PsOut)0;
    ret.oC0_ = arg0;
    return ret;
}

float4 ZeroValuefloat4() {
    return (float4)0;
}

PsOut main(FragmentInput_main fragmentinput_main)
{
    float4 frag_coord = fragmentinput_main.frag_coord_1;
    bool front_facing = fragmentinput_main.front_facing_1;
    const PsOut psout = ConstructPsOut((bool4(false, false, true, true) ? ((front_facing ? 1.0 : -1.0)).xxxx.xxxx : (bool4(true, true, false, false) ? (frag_coord - float4(0.5, 0.5, 0.0, 0.0)) : ZeroValuefloat4())));
    return psout;
}
